import { grpcAddressOf } from '@rental/config';
import { PROBLEM_CATALOGUE, STATUS_CHANGED_SUBJECT } from '@rental/proto';
import { RunningService, outboxRelay, periodicJob, startServiceHost } from '@rental/service-host';
import type { CartCheckoutConfig } from './config';
import { CartRepository } from './data-access/cart-repository';
import { CaseWorkflowClient } from './data-access/case-workflow-client';
import { CheckoutLedgerRepository } from './data-access/checkout-ledger-repository';
import { IdempotencyRepository } from './data-access/idempotency-repository';
import { PricingClient } from './data-access/pricing-client';
import { QuoteRequestRepository } from './data-access/quote-request-repository';
import { consumeCaseStatusChanges } from './entry-points/bus/case-status-changed';
import { cartCheckoutRoutes } from './entry-points/http/routes';
import { quoteRequestCompletionJob } from './entry-points/workers/quote-request-completion-job';
import { migrations } from './migrations';

const PURGE_INTERVAL_MS = 3_600_000;

export function startCartCheckout(config: CartCheckoutConfig): Promise<RunningService> {
  return startServiceHost({
    name: 'cart-checkout',
    migrations,
    config,
    usesBus: true,
    problems: PROBLEM_CATALOGUE,
    build: async ({ db, bus, log }) => {
      const pricing = new PricingClient(grpcAddressOf('pricing', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const caseWorkflow = new CaseWorkflowClient(grpcAddressOf('case-workflow', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const idempotency = new IdempotencyRepository(db, config.IDEMPOTENCY_RETENTION_HOURS);
      const quoteRequests = new QuoteRequestRepository(db, {
        environment: config.API_ENVIRONMENT,
        subject: bus.subject(STATUS_CHANGED_SUBJECT),
        now: () => new Date(),
      });
      consumeCaseStatusChanges(bus, quoteRequests, log);
      return {
        router: cartCheckoutRoutes({
          carts: new CartRepository(db),
          idempotency,
          ledger: new CheckoutLedgerRepository(db, config.IDEMPOTENCY_RETENTION_HOURS),
          quoteRequests,
          pricing,
          caseWorkflow,
          publicBaseUrl: config.PUBLIC_BASE_URL,
        }),
        workers: [
          outboxRelay({ db, bus, log }),
          periodicJob({
            name: 'idempotency-purge',
            everyMs: PURGE_INTERVAL_MS,
            log,
            run: async () => {
              await idempotency.purgeExpired();
            },
          }),
          quoteRequestCompletionJob({ store: quoteRequests, caseWorkflow }, log),
        ],
        close: async () => {
          pricing.close();
          caseWorkflow.close();
        },
      };
    },
  });
}
