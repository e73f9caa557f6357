import { z } from 'zod';
import { emailAddress, nonBlankText } from '@rental/problem';

const optionalText = (max = 300) => z.string().max(max).nullable().optional();

const requiredText = (max = 200) => nonBlankText().max(max);

export const quoteRequestBody = z
  .object({
    email: emailAddress().max(320),
    firstName: requiredText(),
    lastName: requiredText(),
    customerType: z.enum(['company', 'freelancer', 'public_institution']),
    street: requiredText(),
    postalCode: requiredText(20),
    city: requiredText(),
    country: requiredText(100),
    calculation: z.string().max(100).describe('IRI of a calculation of the partner: /api/calculations/<id>'),
    acknowledgedPrivacy: z.boolean().optional().describe('Must be true'),
    name: optionalText(),
    phone: optionalText(50),
    company: optionalText(),
    message: optionalText(5000),
    houseNumber: optionalText(20),
    creditRatingNo: optionalText(100),
    category: z
      .union([z.string().max(200), z.object({}).catchall(z.unknown())])
      .nullable()
      .optional(),
    duration: z.number().int().min(1).max(600).nullable().optional().describe('Pass together with calculationType'),
    calculationType: z.string().max(60).nullable().optional().describe('Pass together with duration'),
  })
  .meta({ id: 'QuoteRequestCreate' });

export type QuoteRequestInput = z.infer<typeof quoteRequestBody>;

/**
 * The state machine of a quote request (the specification leaves the values open): new while it
 * is filed, quote_created once its quote exists (in the same transaction), canceled when that
 * quote is canceled. Each move is a financing_case.status_changed event with resourceType
 * quote_request.
 */
export const QUOTE_REQUEST_STATUSES = ['new', 'quote_created', 'canceled'] as const;

export type QuoteRequestStatus = (typeof QUOTE_REQUEST_STATUSES)[number];

export const QUOTE_REQUEST_STATUS_NEW: QuoteRequestStatus = 'new';

export const QUOTE_REQUEST_TRANSITIONS = {
  create_quote: { from: 'new', to: 'quote_created' },
  cancel: { from: 'quote_created', to: 'canceled' },
} as const satisfies Record<string, { from: QuoteRequestStatus; to: QuoteRequestStatus }>;

export type QuoteRequestTransition = keyof typeof QUOTE_REQUEST_TRANSITIONS;

/** A status change of a case as the bus carries it, reduced to what a quote request follows. */
export interface CaseStatusChange {
  partnerId: string;
  financingCaseId: string;
  resourceType: string;
  toStatus: string;
  status: string;
  occurredAt: string;
}

export interface QuoteRequest {
  id: number;
  partnerId: string;
  status: QuoteRequestStatus;
  calculationId: string;
  financingCaseId: string | null;
  quoteId: string | null;
  fields: QuoteRequestInput & { productSector: string | null };
  createdAt: string;
}
