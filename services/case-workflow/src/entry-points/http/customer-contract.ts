import { z } from 'zod';
import { defineOperation, problemResponses } from '@rental/http';
import { PAYMENT_INTERVALS, customerRequestedItemSchema, customerTokenParams } from '@rental/proto';
import { customerFeedbackBody } from '../../domain/customer';
import { QUOTE_STATES } from '../../domain/quote-machine';

// The customer's API (/customer/v1, authenticated by the link token alone). Not part of the
// partner API description; the same zod objects validate requests here.

const customerViewSchema = z.object({
  quoteNumber: z.string(),
  partner: z.object({ name: z.string().nullable() }),
  customer: z.object({ company: z.string().nullable() }),
  status: z.enum(QUOTE_STATES),
  calculationType: z.string(),
  duration: z.number().int().describe('Months'),
  paymentInterval: z.enum(PAYMENT_INTERVALS).nullable(),
  monthlyRate: z.number().nullable().describe('EUR per month'),
  items: z.array(z.object({ position: z.number().int(), productNumber: z.string(), productName: z.string().nullable(), quantity: z.number().int() })),
  expiresAt: z.string().describe('When this link stops working'),
  actions: z.array(z.enum(['accept', 'request_changes', 'reject'])).describe('What the customer may do now; empty for a view-only link'),
  requestedItems: z.array(customerRequestedItemSchema).describe('What the customer is asked for (customer audience only)'),
}).meta({ id: 'CustomerQuoteView' });

const errors = problemResponses(404, 410, 422, 503);

export const getCustomerQuote = defineOperation({
  operationId: 'getCustomerQuote',
  method: 'get',
  path: '/customer/v1/quotes/{token}',
  summary: 'The offer behind a customer link',
  tags: ['Customer'],
  params: customerTokenParams,
  responses: { 200: { description: 'The offer', schema: customerViewSchema }, ...errors },
});

export const acceptCustomerQuote = defineOperation({
  operationId: 'acceptCustomerQuote',
  method: 'post',
  path: '/customer/v1/quotes/{token}/accept',
  summary: 'Accept the offer: it goes to the lender',
  tags: ['Customer'],
  params: customerTokenParams,
  responses: { 200: { description: 'Accepted', schema: customerViewSchema }, ...problemResponses(403), ...errors },
});

export const giveCustomerFeedback = defineOperation({
  operationId: 'giveCustomerFeedback',
  method: 'post',
  path: '/customer/v1/quotes/{token}/feedback',
  summary: 'Ask for changes or reject the offer',
  tags: ['Customer'],
  params: customerTokenParams,
  body: { schema: customerFeedbackBody, required: true },
  responses: { 200: { description: 'Recorded', schema: customerViewSchema }, ...problemResponses(403), ...errors },
});

export const downloadCustomerOffer = defineOperation({
  operationId: 'downloadCustomerOffer',
  method: 'get',
  path: '/customer/v1/quotes/{token}/offer.pdf',
  summary: 'The offer as a PDF',
  tags: ['Customer'],
  params: customerTokenParams,
  responses: { 200: { description: 'The offer', contentType: 'application/pdf' }, ...errors },
});

