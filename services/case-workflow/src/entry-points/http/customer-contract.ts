import { z } from 'zod';
import { operationFamily } from '@rental/http';
import { CUSTOMER_API, PAYMENT_INTERVALS, customerRequestedItemSchema, customerTokenParams } from '@rental/proto';
import { customerAnswerBody, customerFeedbackBody } from '../../domain/customer/customer';
import { QUOTE_STATES } from '../../domain/quote/quote-machine';

// The customer's API (/customer/v1, authenticated by the link token alone). Not part of the
// partner API description; the same zod objects validate requests here.

const customerViewSchema = z
  .object({
    quoteNumber: z.string(),
    partner: z.object({ name: z.string().nullable() }),
    customer: z.object({ company: z.string().nullable() }),
    status: z.enum(QUOTE_STATES),
    calculationType: z.string(),
    duration: z.number().int().describe('Months'),
    paymentInterval: z.enum(PAYMENT_INTERVALS).nullable(),
    monthlyRate: z
      .number()
      .nullable()
      .describe("What the customer pays per month, EUR: the quote's monthlyRateAllIn (rent's service cost and the monthly surcharge included)"),
    items: z.array(z.object({ position: z.number().int(), productNumber: z.string(), productName: z.string().nullable(), quantity: z.number().int() })),
    expiresAt: z.string().describe('When this link stops working'),
    actions: z.array(z.enum(['accept', 'request_changes', 'reject'])).describe('What the customer may do now; empty for a view-only link'),
    requestedItems: z.array(customerRequestedItemSchema).describe('What the customer is asked for (customer audience only)'),
  })
  .meta({ id: 'CustomerQuoteView' });

const customerOperation = operationFamily(CUSTOMER_API);

export const getCustomerQuote = customerOperation({
  operationId: 'getCustomerQuote',
  method: 'get',
  path: '/customer/v1/quotes/{token}',
  summary: 'The offer behind a customer link',
  returns: { 200: { description: 'The offer', schema: customerViewSchema } },
});

/**
 * A move of the customer on the offer: answered with the offer as it now stands; a view-only
 * link (a checkout's) refuses every move (403).
 */
function offerMove<const S extends Omit<Parameters<typeof customerOperation>[0], 'method' | 'returns' | 'problems'>>(spec: S & { answer: string }) {
  const { answer, ...operation } = spec;
  return customerOperation({ ...operation, method: 'post', returns: { 200: { description: answer, schema: customerViewSchema } }, problems: [403] });
}

export const acceptCustomerQuote = offerMove({
  operationId: 'acceptCustomerQuote',
  path: '/customer/v1/quotes/{token}/accept',
  summary: 'Accept the offer: it goes to the lender',
  answer: 'Accepted',
});

export const giveCustomerFeedback = offerMove({
  operationId: 'giveCustomerFeedback',
  path: '/customer/v1/quotes/{token}/feedback',
  summary: 'Ask for changes or reject the offer',
  body: { schema: customerFeedbackBody, required: true },
  answer: 'Recorded',
});

export const answerCustomerQuestion = customerOperation({
  operationId: 'respondToCustomerInformationRequest',
  method: 'post',
  path: '/customer/v1/quotes/{token}/information/{informationId}/respond',
  summary: 'Answer a question the customer was asked',
  description:
    'Answers a pending customer-audience information request of the offer (a view-only link may answer too). Like every change on /customer/v1 it answers 200 with the customer view, in which the question is now provided. An unknown question, or one of another offer or audience, is 404 `document_request.not_found`; one answered already is 422 `document_request.not_pending`.',
  params: customerTokenParams.extend({ informationId: z.coerce.number().int().positive().max(2_147_483_647) }),
  body: { schema: customerAnswerBody, required: true },
  returns: { 200: { description: 'Answered: the customer view', schema: customerViewSchema } },
});

export const downloadCustomerOffer = customerOperation({
  operationId: 'downloadCustomerOffer',
  method: 'get',
  path: '/customer/v1/quotes/{token}/offer.pdf',
  summary: 'The offer as a PDF',
  returns: { 200: { description: 'The offer', contentType: 'application/pdf' } },
});
