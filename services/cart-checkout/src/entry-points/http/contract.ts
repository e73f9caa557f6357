import { z } from 'zod';
import { operationsOn, ulid } from '@rental/http';
import { DomainError, invalidInput, validationFailed, zodViolations } from '@rental/problem';
import { cartBody, cartItem } from '../../domain/model/cart-item';
import { IDEMPOTENCY_KEY_MAX_LENGTH, checkoutBody } from '../../domain/checkout';
import { QUOTE_REQUEST_STATUSES, quoteRequestBody } from '../../domain/model/quote-request';

const cartParams = z.object({ id: ulid() });

const financingOption = z
  .object({
    financingType: z.string(),
    duration: z.number().int().describe('Months'),
    commission: z.number().int().describe('Commission tier in percent (the preselected tier)'),
    rate: z.number().describe('Monthly rate in EUR for a monthly payment interval, including the monthly surcharge'),
    rentalFactor: z.string().describe('Percent of the financed amount per month, three decimals'),
  })
  .meta({ id: 'FinancingOption' });

export const cartResponse = z
  .object({
    '@id': z.string(),
    '@type': z.literal('Cart'),
    cartId: z.string(),
    status: z.enum(['active', 'checking_out', 'checked_out']).describe('active until checked out'),
    purchasePrice: z.number().describe('Sum of price × quantity, EUR'),
    financingOptions: z.array(financingOption).describe('Options for the whole cart'),
    items: z.array(
      cartItem.extend({
        position: z.number().int(),
        total: z.number(),
        financingOptions: z.array(financingOption).describe('Options for this item alone'),
      }),
    ),
    recurringServiceFee: z.number().nullable().describe("Monthly Print-Plan service fee from the devices' click data; null for carts that are not Print-Plan"),
    financeCaseId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'CartFinancingResponse' });

const cart = operationsOn({ tags: ['Carts'], params: cartParams, noun: 'cart' });
const quoteRequests = operationsOn({ tags: ['Quotes'], noun: 'quote request' });

export const createCart = cart.create({
  operationId: 'createCart',
  path: '/api/carts',
  summary: 'Create a cart and price it',
  description: 'A cart holds items of one article type only; mixed types give 422 with one MIXED_ARTICLE_TYPES violation per item, and nothing is stored.',
  body: { schema: cartBody },
  returns: { description: 'The priced cart', schema: cartResponse },
});

export const getCart = cart.read({
  operationId: 'getCart',
  path: '/api/carts/{id}',
  summary: 'A cart with its status',
  returns: { schema: cartResponse },
});

export const replaceCart = cart.put({
  operationId: 'replaceCart',
  path: '/api/carts/{id}',
  summary: 'Replace the items of a cart',
  description: 'Prices the new items; the article-type rule applies as on create. A checked-out cart cannot be changed (422).',
  body: { schema: cartBody },
  returns: { 200: { description: 'The priced cart', schema: cartResponse } },
});

const deprecationHeaderSpecs = {
  Deprecation: {
    description: 'true: the response carries retired fields (quoteId, quoteLink), and without Idempotency-Key the request uses a deprecated form',
    schema: z.string(),
  },
  Sunset: { description: 'HTTP date after which the deprecated behaviour ends', schema: z.string() },
  Link: {
    description: 'Successor (the financing case, rel="successor-version") and, without Idempotency-Key, the documentation of the header (rel="deprecation")',
    schema: z.string(),
  },
  'X-Deprecated-Fields': { description: 'Retired response fields: quoteId, quoteLink', schema: z.string() },
  Location: { description: 'Path of the financing case', schema: z.string() },
};

export const checkoutResponse = z
  .object({
    financeCaseId: z.string(),
    financeCaseLink: z.url().describe('URL of the financing case: PUBLIC_BASE_URL and /api/financing_cases/{id}'),
    message: z.string(),
    quoteId: z.string().describe('Deprecated: use financeCaseId (sunset 2027-02-01)'),
    quoteLink: z.url().describe('URL of the quote (PUBLIC_BASE_URL and /api/quotes/{id}). Deprecated: use financeCaseLink (sunset 2027-02-01)'),
  })
  .meta({ id: 'CheckoutResponse' });

/** The specification answers a non-boolean submitFinancing with 400, every other malformed field with 422. */
function rejectCheckout(error: z.ZodError, input: unknown): DomainError {
  const violations = zodViolations(error, input);
  const badSubmitFinancing = violations.filter((violation) => violation.propertyPath === 'submitFinancing' && violation.code === 'validation.type');
  if (badSubmitFinancing.length) return invalidInput('checkout.invalid_submit_financing', 'submitFinancing must be a boolean.', badSubmitFinancing);
  return validationFailed(violations);
}

export const checkoutCart = cart.post({
  operationId: 'checkoutCart',
  path: '/api/carts/{id}/checkout',
  summary: 'Check a cart out into a quote and financing case',
  description:
    'Send an Idempotency-Key (a UUID v4 is recommended): a retry with the same key and body returns the original response and creates no second quote. The header becomes required on 2027-02-01; until then a request without it is the deprecated form: every answer to it, errors (4xx) included, carries Deprecation: true, Sunset, Link rel="deprecation" (to this documentation) and a Warning 299.',
  headers: {
    'Idempotency-Key': {
      description: `At most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters; the same key with a different body gives 422; kept at least 24 hours`,
      schema: z.string().max(IDEMPOTENCY_KEY_MAX_LENGTH),
    },
  },
  body: { schema: checkoutBody, reject: rejectCheckout },
  returns: { 201: { description: 'The financing case was created', schema: checkoutResponse, headers: deprecationHeaderSpecs } },
  problems: [403, 409],
});

const nullableText = z.string().nullable();

export const quoteRequestReadShape = z
  .object({
    '@id': z.string(),
    '@type': z.literal('QuoteRequest'),
    id: z.number().int(),
    createdAt: z.string(),
    status: z
      .enum(QUOTE_REQUEST_STATUSES)
      .describe(
        'State machine: new while it is filed, quote_created once its quote exists (the same call that files it, so a filed request is answered quote_created), canceled when that quote is canceled. Each move sends financing_case.status_changed with data.resourceType quote_request (transitions create_quote, cancel)',
      ),
    category: nullableText,
    email: nullableText,
    name: nullableText,
    phone: nullableText,
    company: nullableText,
    message: nullableText,
    firstName: nullableText,
    lastName: nullableText,
    customerType: nullableText,
    street: nullableText,
    houseNumber: nullableText,
    postalCode: nullableText,
    city: nullableText,
    country: nullableText,
    creditRatingNo: nullableText,
    productSector: nullableText,
  })
  .meta({ id: 'QuoteRequest' });

export const quoteRequestCreated = quoteRequestReadShape
  .extend({
    quote: nullableText.describe('IRI of the quote created with the request'),
    redirectUrl: z.string(),
    phoneCountryIso: nullableText,
    phoneExt: nullableText,
    calculation: nullableText,
    financingCase: nullableText,
    deletedAt: nullableText,
    deleted: z.boolean(),
    solvencyCheckCompanyName: nullableText,
    solvencyCheckAddress: nullableText,
    currentSolvencyStatus: z
      .enum(['not_checked'])
      .describe(
        "Solvency check of the customer: the API runs none when a quote request is filed, so it is not_checked; the lender's review of the quote shows in the quote's status",
      ),
  })
  .meta({ id: 'QuoteRequestCreated' });

export const listQuoteRequests = quoteRequests.list({
  operationId: 'listQuoteRequests',
  path: '/api/quote_requests',
  summary: 'Quote requests of the partner, newest first',
  description: 'The partner-facing read shape.',
  items: { description: 'The quote requests', schema: quoteRequestReadShape },
});

export const getQuoteRequest = quoteRequests.read({
  operationId: 'getQuoteRequest',
  path: '/api/quote_requests/{id}',
  summary: 'A quote request',
  params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }),
  returns: { schema: quoteRequestReadShape },
});

export const createQuoteRequest = quoteRequests.create({
  operationId: 'createQuoteRequest',
  path: '/api/quote_requests',
  summary: 'File a quote request from a stored calculation',
  description:
    'Creates the quote request and its quote. duration and calculationType pick one offer of the calculation; with exactly one offer both may be omitted.',
  body: { schema: quoteRequestBody },
  returns: { description: 'The quote request', schema: quoteRequestCreated },
});

export const operations = [createCart, getCart, replaceCart, checkoutCart, listQuoteRequests, getQuoteRequest, createQuoteRequest];
