import { z } from 'zod';
import { defineOperation, operationsOn, problemResponses, ulid } from '@rental/http';
import { PAYMENT_INTERVALS } from '@rental/proto';
import { CONTRACT_PLACES, ENVELOPE_STATES } from '../../domain/contract/contract-machine';
import { contractNumberBody } from '../../domain/contract/contracts';
import { sendToCustomerBody } from '../../domain/customer/customer';
import { startEsignatureBody } from '../../domain/signing/esignature';
import { QUOTE_STATES } from '../../domain/quote/quote-machine';
import { financeDecisionBody, simulateBody } from '../../domain/sandbox/sandbox';
import { advanceClockBody } from '../../domain/sandbox/sandbox-clock';
import { invalidBody } from '../../domain/shared/validation';

const idParams = z.object({ id: ulid().describe('ULID') });
const caseIdParams = z.object({ financingCaseId: ulid().describe('ULID of the financing case') });

const timestamp = z.string().describe('ISO 8601');
const nullableText = z.string().nullable();

export const requestedItemSchema = z
  .object({
    id: z.number().int(),
    type: z.enum(['information', 'document', 'fill_and_return']),
    label: z.string(),
    status: z.string().describe('pending, not_available, provided, sent, accepted or rejected'),
    category: z.string(),
    templateDownloadUrl: nullableText.describe('Fill-and-return only: path of the template'),
    callbackRequestId: z.number().int().optional().describe('Present when the item is linked to a callback request'),
    callbackStatus: z.string(),
    requestedAt: timestamp,
    dueAt: timestamp.nullable().describe('When the answer is due; null when no date is set'),
    optional: z.boolean(),
  })
  .meta({ id: 'FinancingCaseRequestedItem' });

export const financingCaseSchema = z
  .object({
    '@id': z.string(),
    '@type': z.literal('FinancingCase'),
    id: z.string().describe('ULID; the financeCaseId of the checkout'),
    caseNumber: z.string().describe('FC-<year>-<number>'),
    type: z.literal('financing'),
    status: z.enum(QUOTE_STATES).describe("The status of the case's quote"),
    rejectionReason: nullableText.describe('Set when the lender rejected the financing with a reason'),
    financingRequest: z.boolean().describe('false when a checkout created the quote only (submitFinancing false) or the case came from a quote request'),
    partner: z.string().describe('IRI of the partner'),
    quotes: z.array(z.string()).describe("IRIs of the case's quotes"),
    requestedDocuments: z.array(requestedItemSchema),
    requestedFillAndReturns: z.array(requestedItemSchema),
    requestedInformation: z.array(requestedItemSchema),
    requestedItems: z.array(requestedItemSchema).describe('Every partner-visible requested item, oldest first'),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'FinancingCase' });

const customerSchema = z
  .object({
    firstName: nullableText,
    lastName: nullableText,
    email: nullableText,
    street: nullableText,
    houseNumber: nullableText,
    zipCode: nullableText,
    city: nullableText,
    country: nullableText,
    phone: nullableText,
    company: nullableText,
    vatId: nullableText,
    customerType: nullableText,
  })
  .meta({ id: 'QuoteCustomer' });

const addressSchema = z
  .object({
    recipientName: nullableText,
    company: nullableText,
    street: nullableText,
    houseNumber: nullableText,
    zipCode: nullableText,
    city: nullableText,
    country: nullableText,
  })
  .meta({ id: 'QuoteAddress' });

export const authorizedPersonSchema = z
  .object({
    id: z.number().int(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    confirmedByExternal: z.boolean(),
    soloSigneePermitted: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'AuthorizedPerson' });

const financingResponseSchema = z
  .object({
    id: z.number().int(),
    decision: z.enum(['review', 'accepted']),
    active: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: 'FinancingResponse' });

export const quoteSchema = z
  .object({
    '@id': z.string(),
    '@type': z.literal('Quote'),
    id: z.string(),
    quoteNumber: z.string(),
    calculationType: z.string(),
    duration: z.number().int().describe('Months'),
    customer: customerSchema,
    partner: z.object({ '@id': z.string(), '@type': z.literal('Partner'), id: z.string() }),
    status: z.enum(QUOTE_STATES),
    createdAt: timestamp,
    updatedAt: timestamp,
    statusUpdatedAt: timestamp,
    distributionHub: nullableText,
    shippingAddress: addressSchema.describe("The delivery address of the checkout, else the customer's address"),
    effectiveShippingAddress: addressSchema,
    calculation: nullableText.describe('IRI of the calculation a quote request was based on'),
    items: z.array(
      z
        .object({
          position: z.number().int(),
          quantity: z.number().int(),
          pricePerItem: z.number(),
          total: z.number(),
          productNumber: z.string(),
          productName: nullableText,
          productSku: nullableText,
          categorySlug: nullableText,
        })
        .meta({ id: 'QuoteItem' }),
    ),
    inReviewSince: nullableText,
    inReview: z.boolean(),
    hasReceivedReminder: z.boolean(),
    receivedReminder: z.boolean(),
    reminderCount: z.number().int(),
    lastReminderAt: nullableText,
    lenderSubmissionStatus: z.enum(['pending', 'submitted', 'failed']).nullable(),
    lastLenderSubmissionAt: nullableText,
    contract: nullableText.describe('IRI of the contract'),
    cart: nullableText.describe('IRI of the source cart'),
    financingResponses: z.array(financingResponseSchema),
    activeFinancingResponses: z.array(financingResponseSchema),
    apiCall: z.boolean(),
    financeRejectedOverride: z.boolean().describe('Transient; always false when read'),
    authorizedPersons: z.array(authorizedPersonSchema),
    quoteFeedbacks: z.array(
      z
        .object({
          id: z.number().int(),
          quote: nullableText,
          text: nullableText,
          action: z.enum(['request_changes', 'reject_by_customer']),
          createdAt: timestamp,
        })
        .meta({ id: 'QuoteFeedback' }),
    ),
    quoteRequest: nullableText.describe('IRI of the quote request'),
    financingNumber: nullableText,
    financingCaseId: nullableText,
    processingFee: nullableText,
    recurringService: nullableText.describe('Monthly Print-Plan service fee, two decimals'),
    specialAgreements: nullableText,
    rentalFactor: nullableText.describe('Percent per month frozen at checkout, three decimals'),
    residualValue: nullableText.describe('Percent frozen at checkout, three decimals'),
    paymentInterval: z.enum(PAYMENT_INTERVALS).nullable(),
    commissionPercentage: z.number().int(),
    deletedAt: nullableText,
    deleted: z.boolean(),
    totalValue: z
      .number()
      .nullable()
      .describe(
        "Financed amount, EUR: the cart's purchase price, or the calculation's acquisition plus installation cost. One meaning whatever created the quote",
      ),
    monthlyCosts: z
      .number()
      .nullable()
      .describe(
        'Bare monthly financing rate, EUR: totalValue × rentalFactor / 100, rounded half up to cents, without service cost or surcharge. One meaning whatever created the quote (checkout or quote request)',
      ),
    monthlyRateAllIn: z
      .number()
      .nullable()
      .describe(
        "What the customer pays per month, EUR: monthlyCosts plus the rent service cost and the partner's monthly surcharge (monthly interval only); the rate of the calculation offer. One meaning whatever created the quote",
      ),
    selectedOffer: z
      .object({ calculationType: z.string(), duration: z.number().int(), rate: z.number().nullable().describe('Equals monthlyCosts') })
      .nullable(),
    productSector: nullableText,
    contactPhone: nullableText,
    contactEmail: nullableText,
  })
  .meta({ id: 'Quote' });

export const envelopeSchema = z
  .object({
    id: z.string(),
    status: z.enum(ENVELOPE_STATES),
    recipients: z.array(z.object({ name: z.string(), email: nullableText, role: z.enum(['customer', 'signer']) })),
  })
  .meta({ id: 'SignatureEnvelope' });

export const contractSchema = z
  .object({
    '@id': z.string(),
    '@type': z.literal('Contract'),
    id: z.string(),
    contractNumber: nullableText.describe('null until set with edit-contract-number'),
    status: z.enum(CONTRACT_PLACES).describe('Contract place'),
    financingCaseId: z.string(),
    quote: z.string().describe('IRI of the quote'),
    signatureEnvelope: envelopeSchema.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Contract' });

export const contractNumberResponse = z.object({ id: z.string(), contractNumber: z.string() }).meta({ id: 'ContractNumberResponse' });

export const startEsignatureResponse = z
  .object({
    financingCaseId: z.string(),
    contractId: z.string(),
    envelopeId: z.string(),
    status: z.literal('sent'),
    authorizedPersons: z.array(authorizedPersonSchema),
  })
  .meta({ id: 'StartEsignatureResponse' });

const deprecationHeaders = {
  Deprecation: { description: 'true: /api/quotes is superseded by /api/financing_cases', schema: z.string(), required: true },
  Sunset: { description: 'HTTP date after which the deprecated behaviour ends', schema: z.string(), required: true },
  Link: { description: 'The financing case, rel="successor-version"', schema: z.string(), required: true },
};

const financingCases = operationsOn({ tags: ['Financing cases'] });
const financingCase = operationsOn({ tags: ['Financing cases'], params: idParams, noun: 'case' });
const quote = operationsOn({ tags: ['Quotes'], params: idParams, noun: 'quote' });
const contract = operationsOn({ tags: ['Contracts'], params: idParams, noun: 'contract' });
const esignature = operationsOn({ tags: ['E-signature'], params: caseIdParams });
const sandboxCase = operationsOn({ tags: ['Sandbox'], params: idParams, problems: [403] });
const sandboxClock = operationsOn({ tags: ['Sandbox'], params: caseIdParams, problems: [403] });

export const listFinancingCases = financingCases.list({
  operationId: 'listFinancingCases',
  path: '/api/financing_cases',
  summary: 'Financing cases of the partner, newest first',
  description: 'Each case with its status (the status of its quote) and the requested items the documents service holds for it.',
  items: { description: 'The financing cases', schema: financingCaseSchema },
});

export const getFinancingCase = financingCase.read({
  operationId: 'getFinancingCase',
  path: '/api/financing_cases/{id}',
  summary: 'A financing case with its requested items',
  returns: { description: 'The financing case', schema: financingCaseSchema },
});

export const cancelFinancingCase = financingCase.post({
  operationId: 'cancelFinancingCase',
  path: '/api/financing_cases/{id}/cancel',
  summary: 'Cancel a financing case',
  description:
    'No body. Needs the api_user role. Refused (422) while the quote is in_progress, rejected_by_customer, finance_rejected or canceled, and once the contract is signed or later. The quote and, while it waits for signing, the contract move to canceled, with one status-change event each.',
  returns: { 204: { description: 'Canceled' } },
  problems: [400, 403, 422],
});

export const getQuote = quote.read({
  operationId: 'getQuote',
  path: '/api/quotes/{id}',
  summary: 'A quote (deprecated: use the financing case)',
  description: 'Superseded by /api/financing_cases/{id}; sunset 2027-02-01.',
  deprecated: true,
  returns: { schema: quoteSchema, headers: deprecationHeaders },
});

export const getContract = contract.read({
  operationId: 'getContract',
  path: '/api/contracts/{id}',
  summary: 'A contract',
  returns: { schema: contractSchema },
});

export const editContractNumber = contract.patch({
  operationId: 'editContractNumber',
  path: '/api/contracts/{id}/edit-contract-number',
  summary: 'Set the contract number',
  description: "Unique among the partner's contracts (422 at contractNumber otherwise). Another partner's contract answers 403.",
  body: { schema: contractNumberBody, reject: invalidBody },
  returns: { 200: { description: 'The contract number', schema: contractNumberResponse } },
  problems: [403],
});

export const startEsignature = esignature.post({
  operationId: 'startEsignature',
  path: '/api/financing-cases/{financingCaseId}/start-esignature',
  summary: 'Start the electronic signature of the contract',
  description:
    "The quote must be finance_accepted. Shared mailboxes (info@, office@, …) are refused; a single person needs soloSigneePermitted, otherwise at least two persons are needed; where the lender stated who may sign, every person must be on that statement with the same first name, last name and e-mail, and at least its minimum of signers must sign (whatever soloSigneePermitted says). The persons become the quote's authorized persons, the contract is created at wait_for_signing when missing, and a signature envelope is sent to them. Retrying is safe: while the contract's envelope is open and was started for the same persons, the call answers that envelope and sends nothing again; a start with other persons replaces it, and the replaced envelope is voided at the signing provider. 503 when the signing provider did not take the envelope (retry); 409 when a start with other persons replaced this one while the provider was being asked.",
  body: { schema: startEsignatureBody, reject: invalidBody },
  returns: { 200: { description: 'The signature was started, or the open envelope of the same persons', schema: startEsignatureResponse } },
  problems: [403, 409],
});

export const sandboxFinanceDecision = sandboxCase.post({
  operationId: 'sandboxFinanceDecision',
  path: '/api/sandbox/financing_cases/{id}/finance-decision',
  summary: "Sandbox: take the lender's decision",
  description:
    'Sandbox only (404 elsewhere); needs the api_user role. Drives the quote from finance_review, manual_finance_review or finance_questions to finance_accepted or finance_rejected through the state machine, so webhooks and mails fire as for a real decision; any other state is 422.',
  body: { schema: financeDecisionBody, reject: invalidBody },
  returns: { 204: { description: 'Applied' } },
});

export const sandboxSimulate = sandboxCase.post({
  operationId: 'sandboxSimulate',
  path: '/api/sandbox/financing_cases/{id}/simulate',
  summary: 'Sandbox: drive a case into a scenario',
  description:
    'Sandbox only (404 elsewhere); needs the api_user role. Quote scenarios follow the shortest path of the state machine (each change one event); an unreachable state is 422 naming the current and desired status. upload_rejected_type and upload_rejected_size answer 400 with the payload of a real rejected upload.',
  body: { schema: simulateBody, reject: invalidBody },
  returns: { 204: { description: 'Applied' } },
});

export const advanceClockResponse = z
  .object({
    financingCaseId: z.string(),
    clockOffset: z.string().describe("How far the case's clock is ahead of the wall clock in total, e.g. 15d"),
    applied: z
      .array(
        z.object({
          action: z
            .enum(['remind', 'expire', 'overdue_notice', 'cancel', 'link_expired'])
            .describe(
              'remind: a reminder mail to the customer; expire: the review expired (event expire); overdue_notice: the partner was mailed about overdue requested items; cancel: the system canceled the case for overdue items (event cancel); link_expired: the customer links reached their end (410 from then on)',
            ),
          at: timestamp.describe("The case's clock time of the effect"),
        }),
      )
      .describe('What the clock did in the advanced time, in time order; empty when nothing was due'),
    status: z.enum(QUOTE_STATES).describe("The case's status afterwards"),
  })
  .meta({
    id: 'SandboxClockAdvanced',
    examples: [
      {
        financingCaseId: '01JABCDEFGHJKMNPQRSTVWXYZ0',
        clockOffset: '15d',
        applied: [
          { action: 'remind', at: '2026-11-29T10:00:00.000Z' },
          { action: 'remind', at: '2026-12-02T10:00:00.000Z' },
          { action: 'expire', at: '2026-12-10T10:00:00.000Z' },
        ],
        status: 'review_expired',
      },
    ],
  });

export const sandboxAdvanceClock = sandboxClock.post({
  operationId: 'sandboxAdvanceClock',
  path: '/api/sandbox/financing_cases/{financingCaseId}/advance-clock',
  summary: "Sandbox: move one case's clock forward (test clock)",
  description:
    "Sandbox only (404 elsewhere); needs the api_user role; another partner's case 403. Moves this case's clock forward by `by` (1s to 60d; cumulative; no other case moves) and applies at once, in time order, everything the clock would have done to the case meanwhile, as in production: reminders with their mails (REVIEW_REMINDER_AFTER, at most REVIEW_REMINDER_MAX), the expiry of a review (REVIEW_EXPIRY_AFTER, event expire, the link answers 410), overdue notices of required requested items, the system's cancel once they are DOCUMENT_OVERDUE_GRACE overdue (event cancel), and the end of customer links. The case's changes are stamped with its clock. An advance overtaken by another advance of the same case applies nothing (409 sandbox.clock_advancing); a repeated advance applies no effect twice.",
  body: { schema: advanceClockBody, reject: invalidBody },
  returns: { 200: { description: 'The clock moved; what it applied', schema: advanceClockResponse } },
  problems: [409],
});

export const sendToCustomerResponse = z
  .object({
    financingCaseId: z.string(),
    status: z.literal('in_review'),
    customerUrl: z.string().describe("{PUBLIC_BASE_URL}/c/{token}: the customer's page of the offer"),
    expiresAt: timestamp.describe('When the link stops working (CUSTOMER_LINK_TTL after sending)'),
  })
  .meta({
    id: 'SendToCustomerResponse',
    examples: [
      {
        financingCaseId: '01JABCDEFGHJKMNPQRSTVWXYZ0',
        status: 'in_review',
        customerUrl: 'https://rental.example/c/3q2-7wQ9pL0sXkB1vN4mT6yZ8aC5eR2uI0oP9dF7gH1',
        expiresAt: '2026-12-23T13:18:27.000Z',
      },
    ],
  });

export const sendToCustomer = defineOperation({
  operationId: 'sendToCustomer',
  method: 'post',
  path: '/api/financing_cases/{id}/send-to-customer',
  summary: 'Send the offer to the customer',
  description:
    "Needs the api_user role. From in_progress (finalize), change_requested (apply_changes) or review_expired (reactivate) the quote moves to in_review (one status-change event); in in_review only a new link is sent. Every earlier link stops working (410). The customer gets the link by mail, at `email` or else the checkout customer's e-mail (none: 422 at email). Other statuses 422; another partner's case 403.",
  tags: ['Financing cases'],
  params: idParams,
  body: { schema: sendToCustomerBody.meta({ id: 'SendToCustomerRequest', examples: [{}, { email: 'buyer@customer.example' }] }), required: false },
  responses: {
    200: { description: 'The quote is in review and the customer was sent the link', schema: sendToCustomerResponse },
    ...problemResponses(401, 403, 404, 422, 503),
  },
});

export const operations = [
  listFinancingCases,
  getFinancingCase,
  cancelFinancingCase,
  sendToCustomer,
  getQuote,
  getContract,
  editContractNumber,
  startEsignature,
  sandboxFinanceDecision,
  sandboxSimulate,
  sandboxAdvanceClock,
];
