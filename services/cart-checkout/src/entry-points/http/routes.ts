import { OperationRouter, SUNSET_HTTP_DATE, keylessCheckoutHeaders, pageWindow } from '@rental/http';
import { amountOfDecimal } from '@rental/money';
import { invalidInput } from '@rental/problem';
import { Cart, CartStore, createCart as createCartUseCase, ownCart, replaceCart as replaceCartUseCase } from '../../domain/cart';
import { CheckoutDependencies, CheckoutOutcome, IDEMPOTENCY_KEY_MAX_LENGTH, checkOut, checkoutRequestHash } from '../../domain/checkout';
import type { CaseWorkflowPort, PricingPort } from '../../domain/ports';
import { QuoteRequest, QuoteRequestStore, fileQuoteRequest, findQuoteRequest } from '../../domain/quote-request';
import { checkoutCart, createCart, createQuoteRequest, getCart, getQuoteRequest, listQuoteRequests, replaceCart } from './contract';

export interface CartCheckoutRouteDependencies extends CheckoutDependencies {
  carts: CheckoutDependencies['carts'] & CartStore;
  quoteRequests: QuoteRequestStore;
  pricing: PricingPort;
  caseWorkflow: CaseWorkflowPort;
}

const cartPath = (id: string) => `/api/carts/${id}`;
const financingCasePath = (id: string) => `/api/financing_cases/${id}`;

function presentCart(cart: Cart) {
  return {
    '@id': cartPath(cart.id),
    '@type': 'Cart' as const,
    cartId: cart.id,
    status: cart.status,
    purchasePrice: amountOfDecimal(cart.pricing.purchasePrice),
    financingOptions: cart.pricing.financingOptions.map(presentOption),
    items: cart.items.map((item, index) => {
      const priced = cart.pricing.items[index];
      return { ...item, position: index + 1, total: amountOfDecimal(priced?.total ?? '0'), financingOptions: (priced?.financingOptions ?? []).map(presentOption) };
    }),
    recurringServiceFee: cart.pricing.recurringServiceFee === null ? null : amountOfDecimal(cart.pricing.recurringServiceFee),
    financeCaseId: cart.financingCaseId,
    createdAt: cart.createdAt,
    updatedAt: cart.updatedAt,
  };
}

function presentOption(option: CartPricingOption) {
  return { financingType: option.financingType, duration: option.duration, commission: option.commission, rate: amountOfDecimal(option.monthlyRateAllIn), rentalFactor: option.rentalFactor };
}
type CartPricingOption = Cart['pricing']['financingOptions'][number];

function presentCheckout(outcome: CheckoutOutcome, idempotencyKeyGiven: boolean) {
  const financeCaseLink = financingCasePath(outcome.financingCaseId);
  const links = [`<${financeCaseLink}>; rel="successor-version"`];
  const headers: Record<string, string> = {
    Location: financeCaseLink,
    Deprecation: 'true',
    Sunset: SUNSET_HTTP_DATE,
    'X-Deprecated-Fields': 'quoteId, quoteLink',
  };
  if (!idempotencyKeyGiven) {
    const keyless = keylessCheckoutHeaders();
    links.push(keyless.Link as string);
    headers.Warning = keyless.Warning as string;
  }
  headers.Link = links.join(', ');
  return {
    status: 201,
    headers,
    body: {
      financeCaseId: outcome.financingCaseId,
      financeCaseLink,
      message: outcome.submitFinancing
        ? 'Checkout complete: the quote and financing case were created and submitted for finance review.'
        : 'Checkout complete: the quote was created without a financing request.',
      quoteId: outcome.quoteId,
      quoteLink: `/api/quotes/${outcome.quoteId}`,
    },
  };
}

const categoryText = (category: unknown): string | null => {
  if (typeof category === 'string') return category;
  if (category && typeof category === 'object') {
    const { slug, name } = category as { slug?: unknown; name?: unknown };
    if (typeof slug === 'string') return slug;
    if (typeof name === 'string') return name;
  }
  return null;
};

function presentQuoteRequest(request: QuoteRequest) {
  const fields = request.fields;
  return {
    '@id': `/api/quote_requests/${request.id}`,
    '@type': 'QuoteRequest' as const,
    id: request.id,
    createdAt: request.createdAt,
    status: request.status,
    category: categoryText(fields.category),
    email: fields.email,
    name: fields.name ?? null,
    phone: fields.phone ?? null,
    company: fields.company ?? null,
    message: fields.message ?? null,
    firstName: fields.firstName,
    lastName: fields.lastName,
    customerType: fields.customerType,
    street: fields.street,
    houseNumber: fields.houseNumber ?? null,
    postalCode: fields.postalCode,
    city: fields.city,
    country: fields.country,
    creditRatingNo: fields.creditRatingNo ?? null,
    productSector: fields.productSector,
  };
}

function presentCreatedQuoteRequest(request: QuoteRequest) {
  return {
    ...presentQuoteRequest(request),
    quote: request.quoteId ? `/api/quotes/${request.quoteId}` : null,
    redirectUrl: request.financingCaseId ? financingCasePath(request.financingCaseId) : `/api/quote_requests/${request.id}`,
    phoneCountryIso: null,
    phoneExt: null,
    calculation: `/api/calculations/${request.calculationId}`,
    financingCase: request.financingCaseId ? financingCasePath(request.financingCaseId) : null,
    deletedAt: null,
    deleted: false,
    solvencyCheckCompanyName: null,
    solvencyCheckAddress: null,
    currentSolvencyStatus: 'not_checked' as const,
  };
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
        return presentCheckout(outcome, idempotencyKey !== undefined);
      },
    })
    .handle(listQuoteRequests, async ({ query, partner }) => {
      const { limit, offset } = pageWindow(query.page);
      const requests = await deps.quoteRequests.list(partner.id, limit, offset);
      return { status: 200, body: requests.map(presentQuoteRequest) };
    })
    .handle(getQuoteRequest, async ({ params, partner }) => ({ status: 200, body: presentQuoteRequest(await findQuoteRequest(deps.quoteRequests, partner.id, params.id)) }))
    .handle(createQuoteRequest, async ({ body, partner, requestId }) => {
      const created = await fileQuoteRequest(body, { store: deps.quoteRequests, pricing: deps.pricing, caseWorkflow: deps.caseWorkflow }, context(partner.id, requestId));
      return { status: 201, body: presentCreatedQuoteRequest(created), headers: { Location: `/api/quote_requests/${created.id}` } };
    });
}
