import { OutboxRelay } from '@rental/bus';
import { grpcAddressOf } from '@rental/config';
import { MAIL_REQUESTED_SUBJECT, STATUS_CHANGED_SUBJECT } from '@rental/proto';
import { RunningService, startServiceHost } from '@rental/service-host';
import type { CaseWorkflowConfig } from './config';
import { CaseRepository } from './data-access/case-repository';
import { DocumentsClient } from './data-access/documents-client';
import { ClockRepository } from './data-access/clock-repository';
import { LenderSubmissionRepository } from './data-access/lender-submission-repository';
import { GrpcPartnerNames } from './data-access/partner-names';
import { SandboxLender, SandboxSigningStatements } from './data-access/sandbox-adapters';
import { caseWorkflowGrpcService } from './entry-points/grpc/server';
import { caseWorkflowRoutes } from './entry-points/http/routes';
import { ClockWorker } from './entry-points/workers/clock-worker';
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
        mailSubject: bus.subject(MAIL_REQUESTED_SUBJECT),
        now,
        onLenderSubmissionQueued: () => lenderWorker.wake(),
      });
      const documents = new DocumentsClient(grpcAddressOf('documents', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const partners = new GrpcPartnerNames(grpcAddressOf('pricing', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const customer = { publicBaseUrl: config.PUBLIC_BASE_URL ?? `http://127.0.0.1:${config.PORT}`, linkTtlMs: config.CUSTOMER_LINK_TTL, now };
      const clockRepository = new ClockRepository(db);
      const clock = new ClockWorker({
        store, queries: clockRepository, leases: clockRepository, documents, partners, customer, now,
        clock: { reminderAfterMs: config.REVIEW_REMINDER_AFTER, reminderMax: config.REVIEW_REMINDER_MAX, expiryAfterMs: config.REVIEW_EXPIRY_AFTER, overdueGraceMs: config.DOCUMENT_OVERDUE_GRACE },
      }, config.SCHEDULER_TICK, log);
      return {
        router: caseWorkflowRoutes({ store, documents, signingStatements: new SandboxSigningStatements(), sandbox: config.API_ENVIRONMENT === 'sandbox', partners, customer }),
        grpc: [caseWorkflowGrpcService(store, log, { settings: customer, partners })],
        workers: [new OutboxRelay({ db, bus, log }), lenderWorker, clock],
        close: async () => {
          documents.close();
          partners.close();
        },
      };
    },
  });
}
