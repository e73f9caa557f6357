import { grpcAddressOf } from '@rental/config';
import { MAIL_REQUESTED_SUBJECT, PROBLEM_CATALOGUE, STATUS_CHANGED_SUBJECT } from '@rental/proto';
import { RunningService, outboxRelay, postgresLease, startServiceHost } from '@rental/service-host';
import type { CaseWorkflowConfig } from './config';
import { CaseRepository } from './data-access/case-repository';
import { PdfContractRenderer } from './data-access/contract-pdf';
import { ReminderBatchRepository } from './data-access/reminder-batch-repository';
import { CreditBureauClient } from './data-access/credit-bureau-client';
import { ClockRepository } from './data-access/clock-repository';
import { DocumentsClient } from './data-access/documents-client';
import { EnvelopeVoidRepository } from './data-access/envelope-void-repository';
import { HttpLender } from './data-access/http-lender';
import { HttpSigningProvider } from './data-access/http-signing-provider';
import { LenderSubmissionRepository } from './data-access/lender-submission-repository';
import { OpsReadsRepository } from './data-access/ops-reads-repository';
import { GrpcPartnerNames } from './data-access/partner-names';
import { SandboxLender, SandboxSigningStatements } from './data-access/sandbox-adapters';
import { StandardWebhooks } from './data-access/standard-webhooks';
import { lenderApplication } from './domain/lender/lender';
import { lenderRetrySchedule } from './domain/lender/lender-submission';
import type { LenderAdapter } from './domain/lender/ports';
import { StoredSigningStatements } from './domain/signing/signing';
import { caseWorkflowGrpcService } from './entry-points/grpc/server';
import { mountCallbacks } from './entry-points/http/callbacks';
import { caseWorkflowRoutes } from './entry-points/http/routes';
import { clockJob } from './entry-points/workers/clock-job';
import { envelopeVoidJob } from './entry-points/workers/envelope-void-job';
import { lenderSubmissionJob } from './entry-points/workers/lender-submission-job';
import { migrations } from './migrations';

export function startCaseWorkflow(config: CaseWorkflowConfig): Promise<RunningService> {
  return startServiceHost({
    name: 'case-workflow',
    migrations,
    config,
    usesBus: true,
    problems: PROBLEM_CATALOGUE,
    build: async ({ db, bus, log }) => {
      const production = config.API_ENVIRONMENT === 'production';
      const now = () => new Date();
      const retries = lenderRetrySchedule(config.LENDER_MAX_ATTEMPTS);
      const submissions = new LenderSubmissionRepository(db, retries);
      const signed = new StandardWebhooks();
      const events = {
        environment: config.API_ENVIRONMENT,
        subject: bus.subject(STATUS_CHANGED_SUBJECT),
        mailSubject: bus.subject(MAIL_REQUESTED_SUBJECT),
        now,
        onLenderSubmissionQueued: () => lenderWorker.wake(),
        onEnvelopeVoidQueued: () => voidWorker?.wake(),
      };
      const store = new CaseRepository(db, events);
      const documents = new DocumentsClient(grpcAddressOf('documents', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const partners = new GrpcPartnerNames(grpcAddressOf('pricing', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const creditBureau = new CreditBureauClient(config.CREDIT_BUREAU_URL);
      const lender: LenderAdapter = production
        ? new HttpLender({
            lenders: submissions,
            signed,
            application: (submission, lenderId) =>
              lenderApplication({ store, applications: submissions, creditBureau, partners, publicBaseUrl: config.PUBLIC_BASE_URL }, submission, lenderId),
            simulatorUrl: config.LENDER_SIMULATOR_URL,
            now,
            log,
          })
        : new SandboxLender(log);
      const lenderWorker = lenderSubmissionJob(
        { queue: submissions, lender, now, schedule: retries },
        { concurrency: config.LENDER_SUBMISSION_CONCURRENCY, pollMs: config.LENDER_SUBMISSION_POLL_MS, log },
      );
      const secret = production ? config.SIGNING_WEBHOOK_SECRET : undefined;
      const signing =
        production && secret
          ? {
              provider: new HttpSigningProvider({ url: config.SIGNING_PROVIDER_URL, secret, publicBaseUrl: config.PUBLIC_BASE_URL, signed, now }),
              renderer: new PdfContractRenderer(),
              now,
            }
          : undefined;
      // Production only: sandbox envelopes never leave the process.
      const voidWorker = signing ? envelopeVoidJob({ queue: new EnvelopeVoidRepository(db), provider: signing.provider, now }, log) : undefined;
      const customer = { publicBaseUrl: config.PUBLIC_BASE_URL, linkTtlMs: config.CUSTOMER_LINK_TTL, now };
      const clockSettings = {
        reminderAfterMs: config.REVIEW_REMINDER_AFTER,
        reminderMax: config.REVIEW_REMINDER_MAX,
        expiryAfterMs: config.REVIEW_EXPIRY_AFTER,
        overdueGraceMs: config.DOCUMENT_OVERDUE_GRACE,
      };
      const clock = clockJob(
        {
          store,
          queries: new ClockRepository(db),
          reminders: new ReminderBatchRepository(db, events),
          documents,
          partners,
          customer,
          now,
          clock: clockSettings,
        },
        { tickMs: config.SCHEDULER_TICK, lease: postgresLease(db, 'case-workflow.clock'), log },
      );
      return {
        router: caseWorkflowRoutes({
          store,
          documents,
          signingStatements: production ? new StoredSigningStatements(store) : new SandboxSigningStatements(),
          signing,
          sandbox: config.API_ENVIRONMENT === 'sandbox',
          partners,
          customer,
          clock: clockSettings,
        }),
        mountOutsideApi: (app) =>
          mountCallbacks(app, {
            lender: { store, lenders: submissions, signed, documents, production, dueAfterMs: config.DOCUMENT_DUE_AFTER, now },
            signing: { store, documents, signed, secret, now },
          }),
        grpc: [caseWorkflowGrpcService(store, log, { applications: submissions, lender }, new OpsReadsRepository(db), { settings: customer, partners })],
        workers: [outboxRelay({ db, bus, log }), lenderWorker, clock, ...(voidWorker ? [voidWorker] : [])],
        close: async () => {
          documents.close();
          partners.close();
        },
      };
    },
  });
}
