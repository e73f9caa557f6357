import { SUNSET_HTTP_DATE, keylessCheckoutHeaders } from '@rental/http';
import { amountOfDecimal } from '@rental/money';
import type { Cart } from '../../domain/model/cart';
import type { CheckoutOutcome } from '../../domain/model/checkout';
import type { QuoteRequest } from '../../domain/model/quote-request';

// The API's JSON shapes of carts, checkouts and quote requests, with their paths and headers.

export const cartPath = (id: string) => `/api/carts/${id}`;
const financingCasePath = (id: string) => `/api/financing_cases/${id}`;

export function presentCart(cart: Cart) {
  return {
    '@id': cartPath(cart.id),
    '@type': 'Cart' as const,
    cartId: cart.id,
    status: cart.status,
    purchasePrice: amountOfDecimal(cart.pricing.purchasePrice),
    financingOptions: cart.pricing.financingOptions.map(presentOption),
    items: cart.items.map((item, index) => {
      const priced = cart.pricing.items[index];
      return {
        ...item,
        position: index + 1,
        total: amountOfDecimal(priced?.total ?? '0'),
        financingOptions: (priced?.financingOptions ?? []).map(presentOption),
      };
    }),
    recurringServiceFee: cart.pricing.recurringServiceFee === null ? null : amountOfDecimal(cart.pricing.recurringServiceFee),
    financeCaseId: cart.financingCaseId,
    createdAt: cart.createdAt,
    updatedAt: cart.updatedAt,
  };
}

function presentOption(option: CartPricingOption) {
  return {
    financingType: option.financingType,
    duration: option.duration,
    commission: option.commission,
    rate: amountOfDecimal(option.monthlyRateAllIn),
    rentalFactor: option.rentalFactor,
  };
}
type CartPricingOption = Cart['pricing']['financingOptions'][number];

/** The checkout answer: `financeCaseLink` and `quoteLink` are URLs (`publicUrl` of their paths), as the specification types them. */
export function presentCheckout(outcome: CheckoutOutcome, idempotencyKeyGiven: boolean, publicUrl: (path: string) => string) {
  const casePath = financingCasePath(outcome.financingCaseId);
  const links = [`<${casePath}>; rel="successor-version"`];
  const headers: Record<string, string> = {
    Location: casePath,
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
      financeCaseLink: publicUrl(casePath),
      message: outcome.submitFinancing
        ? 'Checkout complete: the quote and financing case were created and submitted for finance review.'
        : 'Checkout complete: the quote was created without a financing request.',
      quoteId: outcome.quoteId,
      quoteLink: publicUrl(`/api/quotes/${outcome.quoteId}`),
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

export function presentQuoteRequest(request: QuoteRequest) {
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

export function presentCreatedQuoteRequest(request: QuoteRequest) {
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
