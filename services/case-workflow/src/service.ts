import { OutboxRelay } from '@rental/bus';
import { grpcAddressOf } from '@rental/config';
import { STATUS_CHANGED_SUBJECT } from '@rental/proto';
import { RunningService, startServiceHost } from '@rental/service-host';
import type { CaseWorkflowConfig } from './config';
import { CaseRepository } from './data-access/case-repository';
import { DocumentsClient } from './data-access/documents-client';
import { LenderSubmissionRepository } from './data-access/lender-submission-repository';
import { OpsReadsRepository } from './data-access/ops-reads-repository';
import { SandboxLender, SandboxSigningStatements } from './data-access/sandbox-adapters';
import { caseWorkflowGrpcService } from './entry-points/grpc/server';
import { caseWorkflowRoutes } from './entry-points/http/routes';
import { LenderSubmissionWorker } from './entry-points/workers/lender-submission-worker';
import { migrations } from './migrations';

export const CASE_WORKFLOW_SCHEMA = 'case_workflow';

export function startCaseWorkflow(config: CaseWorkflowConfig): Promise<RunningService> {
  return startServiceHost({
    name: 'case-workflow',
    schema: CASE_WORKFLOW_SCHEMA,
    migrations,
    config,
    usesBus: true,
    build: async ({ db, bus, log }) => {
      if (!bus) throw new Error('case-workflow publishes status events and needs the bus');
      const now = () => new Date();
      const lenderWorker = new LenderSubmissionWorker({ queue: new LenderSubmissionRepository(db), lender: new SandboxLender(log), now }, config.LENDER_SUBMISSION_POLL_MS, log);
      const store = new CaseRepository(db, {
        environment: config.API_ENVIRONMENT,
        subject: bus.subject(STATUS_CHANGED_SUBJECT),
        now,
        onLenderSubmissionQueued: () => lenderWorker.wake(),
      });
      const documents = new DocumentsClient(grpcAddressOf('documents', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      return {
        router: caseWorkflowRoutes({ store, documents, signingStatements: new SandboxSigningStatements(), sandbox: config.API_ENVIRONMENT === 'sandbox' }),
        grpc: [caseWorkflowGrpcService(store, log, new OpsReadsRepository(db))],
        workers: [new OutboxRelay({ db, bus, log }), lenderWorker],
        close: async () => documents.close(),
      };
    },
  });
}
