import { grpcAddressOf } from '@rental/config';
import { RunningService, startServiceHost } from '@rental/service-host';
import type { CartCheckoutConfig } from './config';
import { CartRepository } from './data-access/cart-repository';
import { CaseWorkflowClient } from './data-access/case-workflow-client';
import { CheckoutLedgerRepository } from './data-access/checkout-ledger-repository';
import { IdempotencyRepository } from './data-access/idempotency-repository';
import { PricingClient } from './data-access/pricing-client';
import { QuoteRequestRepository } from './data-access/quote-request-repository';
import { cartCheckoutRoutes } from './entry-points/http/routes';
import { migrations } from './migrations';

export const CART_CHECKOUT_SCHEMA = 'cart_checkout';
const PURGE_INTERVAL_MS = 3_600_000;

export function startCartCheckout(config: CartCheckoutConfig): Promise<RunningService> {
  return startServiceHost({
    name: 'cart-checkout',
    schema: CART_CHECKOUT_SCHEMA,
    migrations,
    config,
    usesBus: false,
    build: async ({ db, log }) => {
      const pricing = new PricingClient(grpcAddressOf('pricing', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const caseWorkflow = new CaseWorkflowClient(grpcAddressOf('case-workflow', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const idempotency = new IdempotencyRepository(db, config.IDEMPOTENCY_RETENTION_HOURS);
      let purgeTimer: NodeJS.Timeout | undefined;
      return {
        router: cartCheckoutRoutes({
          carts: new CartRepository(db),
          idempotency,
          ledger: new CheckoutLedgerRepository(db, config.IDEMPOTENCY_RETENTION_HOURS),
          quoteRequests: new QuoteRequestRepository(db),
          pricing,
          caseWorkflow,
        }),
        workers: [{
          start: () => {
            purgeTimer = setInterval(() => {
              idempotency.purgeExpired().catch((error) => log.warn({ err: error }, 'purging expired idempotency keys failed'));
            }, PURGE_INTERVAL_MS);
            purgeTimer.unref();
          },
          stop: async () => clearInterval(purgeTimer),
        }],
        close: async () => {
          pricing.close();
          caseWorkflow.close();
        },
      };
    },
  });
}
