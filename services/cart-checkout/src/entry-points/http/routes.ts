import { OperationRouter, pageWindow, publicUrlOf } from '@rental/http';
import { invalidInput } from '@rental/problem';
import { createCart as createCartUseCase, ownCart, replaceCart as replaceCartUseCase } from '../../domain/cart';
import type { CartStore, CaseWorkflowPort, PricingPort, QuoteRequestStore } from '../../domain/ports';
import { CheckoutDependencies, IDEMPOTENCY_KEY_MAX_LENGTH, checkOut, checkoutRequestHash } from '../../domain/checkout';
import { fileQuoteRequest, findQuoteRequest } from '../../domain/quote-request';
import { checkoutCart, createCart, createQuoteRequest, getCart, getQuoteRequest, listQuoteRequests, replaceCart } from './contract';
import { cartPath, presentCart, presentCheckout, presentCreatedQuoteRequest, presentQuoteRequest } from './presenters';

export interface CartCheckoutRouteDependencies extends CheckoutDependencies {
  carts: CheckoutDependencies['carts'] & CartStore;
  quoteRequests: QuoteRequestStore;
  pricing: PricingPort;
  caseWorkflow: CaseWorkflowPort;
  /** PUBLIC_BASE_URL: the base of the checkout answer's links; unset, the address the partner called. */
  publicBaseUrl: string | undefined;
}

function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header.join(',') : header;
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw invalidInput('idempotency.key_invalid', `Idempotency-Key must have 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`, [
      { propertyPath: 'Idempotency-Key', code: 'idempotency.key_invalid', message: `At most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.` },
    ]);
  }
  return key;
}

export function cartCheckoutRoutes(deps: CartCheckoutRouteDependencies): OperationRouter {
  const context = (partnerId: string, requestId: string) => ({ partnerId, requestId });
  return new OperationRouter()
    .handle(createCart, async ({ body, partner, requestId }) => {
      const cart = await createCartUseCase(body.items, deps.carts, deps.pricing, context(partner.id, requestId));
      return { status: 201, body: presentCart(cart), headers: { Location: cartPath(cart.id) } };
    })
    .handle(getCart, async ({ params, partner }) => ({ status: 200, body: presentCart(await ownCart(deps.carts, params.id, partner.id)) }))
    .handle(replaceCart, async ({ params, body, partner, requestId }) => {
      const cart = await replaceCartUseCase(params.id, body.items, deps.carts, deps.pricing, context(partner.id, requestId));
      return { status: 200, body: presentCart(cart) };
    })
    .handle(checkoutCart, {
      // The key is checked before the body, so a malformed key is 400 whatever the body.
      before: async ({ req }) => idempotencyKeyOf(req.headers['idempotency-key']),
      handle: async ({ params, body, partner, requestId, req, guarded: idempotencyKey }) => {
        // A retry is recognised by the body as sent, before defaults were applied.
        const outcome = await checkOut(params.id, body, checkoutRequestHash(params.id, req.body ?? {}), idempotencyKey, deps, context(partner.id, requestId));
        return presentCheckout(outcome, idempotencyKey !== undefined, (path) => publicUrlOf(path, req, deps.publicBaseUrl));
      },
    })
    .handle(listQuoteRequests, async ({ query, partner }) => {
      const { limit, offset } = pageWindow(query.page);
      const requests = await deps.quoteRequests.list(partner.id, limit, offset);
      return { status: 200, body: requests.map(presentQuoteRequest) };
    })
    .handle(getQuoteRequest, async ({ params, partner }) => ({
      status: 200,
      body: presentQuoteRequest(await findQuoteRequest(deps.quoteRequests, partner.id, params.id)),
    }))
    .handle(createQuoteRequest, async ({ body, partner, requestId }) => {
      const created = await fileQuoteRequest(
        body,
        { store: deps.quoteRequests, pricing: deps.pricing, caseWorkflow: deps.caseWorkflow },
        context(partner.id, requestId),
      );
      return { status: 201, body: presentCreatedQuoteRequest(created), headers: { Location: `/api/quote_requests/${created.id}` } };
    });
}
