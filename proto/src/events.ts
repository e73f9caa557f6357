import { z } from 'zod';
import { QUOTE_STATES } from './quote-states';

/**
 * The one event of the platform, as it travels on the bus. case-workflow publishes it through
 * its outbox; notifications delivers `webhookBody` to partners, documents reacts to cancels.
 * Each change goes to its own subject below this one, `case.status_changed.<resourceType>.<transition>`
 * (statusChangeSubject), so a consumer that acts on a few transitions has the server filter out the
 * rest instead of receiving and acknowledging every event. Up to 2026-11 every change went to this
 * subject itself; consumers still read what publishers not yet upgraded send there (ConsumerOptions.upgradeDurable).
 */
export const STATUS_CHANGED_SUBJECT = 'case.status_changed';
export const STATUS_CHANGED_EVENT = 'financing_case.status_changed';

export const STATUS_CHANGED_RESOURCE_TYPES = ['quote', 'contract', 'quote_request'] as const;

const SUBJECT_TOKEN = /^[a-z0-9_]+$/;

/** The subject of one status change below `base` (STATUS_CHANGED_SUBJECT, with or without a stack's prefix). */
export function statusChangeSubject(base: string, change: { resourceType: string; transition: string }): string {
  if (!SUBJECT_TOKEN.test(change.resourceType) || !SUBJECT_TOKEN.test(change.transition)) {
    throw new Error(`A status change's resource type and transition must be subject tokens: ${change.resourceType}, ${change.transition}`);
  }
  return `${base}.${change.resourceType}.${change.transition}`;
}

/** Every status change (notifications delivers each to the partner's endpoints). */
export const EVERY_STATUS_CHANGE_SUBJECT = `${STATUS_CHANGED_SUBJECT}.>`;

/**
 * The cancellations of quotes, and with them of their cases: the only status changes documents
 * and cart-checkout act on (no other quote transition leads to canceled).
 */
export const QUOTE_CANCELED_SUBJECT = statusChangeSubject(STATUS_CHANGED_SUBJECT, { resourceType: 'quote', transition: 'cancel' });

/** What changed; one definition for the bus and for the webhook body partners receive. */
export const statusChangedData = z.object({
  financingCaseId: z.string().describe('The financeCaseId of the checkout'),
  quoteId: z.string().optional().describe('Quote of the case; omitted when there is no quote'),
  resourceType: z.enum(STATUS_CHANGED_RESOURCE_TYPES).describe('What changed: the quote (and with it the case), its contract, or its quote request'),
  fromStatus: z
    .string()
    .describe(
      `Status of the changed resource before the change. "new" when the quote, contract or quote request was just created (transition create, or create_quote for a quote request). Otherwise a value of the resource named by resourceType: for quote a quote status (${QUOTE_STATES.join(', ')}); for contract a contract place (wait_for_signing, signed, post_processing_required, delivery_approved, invoice_checked, completed, canceled); for quote_request a quote request status (new, quote_created, canceled)`,
    ),
  toStatus: z
    .string()
    .describe(
      'Status of the changed resource after the change, from the same value sets as fromStatus; a contract removed by a sandbox reset has toStatus removed (transition reset). For quote events canceled, finance_rejected and rejected_by_customer mean the order will not go ahead',
    ),
  status: z
    .string()
    .describe(
      "Status of the case (its quote's status) right after the change, for contract and quote_request events too: a contract event carries the contract place in fromStatus/toStatus and the case status here",
    ),
  transition: z.string().describe('Name of the change, for example create, cancel, finance_reject or reset; create_quote and cancel for quote requests'),
});

/** The envelope members a partner receives. */
const statusChangedEnvelope = {
  id: z.string().describe('Unique event id, unchanged on retries; use it to drop duplicates'),
  event: z.literal(STATUS_CHANGED_EVENT),
  occurredAt: z.string().describe('ISO 8601 time of the change; the event with the latest occurredAt carries the current state'),
  version: z.literal(1).describe('Envelope version'),
};

/** The event as it travels on the bus: the envelope plus the routing members. */
export const statusChangedEvent = z.object({
  ...statusChangedEnvelope,
  data: statusChangedData,
  /** Routing only; never part of the webhook body. */
  partnerId: z.string(),
  environment: z.string(),
});

export type StatusChangedEvent = z.infer<typeof statusChangedEvent>;

/** The body a partner receives: the envelope without the routing members. */
export function webhookBody(event: StatusChangedEvent): Omit<StatusChangedEvent, 'partnerId' | 'environment'> {
  const { partnerId: _partnerId, environment: _environment, ...body } = event;
  return body;
}

/** What a partner's endpoint receives, as described in the API description's `webhooks`. */
export const statusChangedWebhookBody = z
  .object({
    ...statusChangedEnvelope,
    data: statusChangedData.catchall(z.unknown()).describe('New fields may be added without a version change; ignore unknown fields'),
  })
  .meta({ id: 'FinancingCaseStatusChangedEvent' });

/** One status change of a case, as its publisher (case-workflow, or cart-checkout for quote requests) knows it. */
export interface StatusChange {
  id: string;
  occurredAt: Date;
  partnerId: string;
  environment: string;
  financingCaseId: string;
  quoteId: string;
  resourceType: StatusChangedEvent['data']['resourceType'];
  fromStatus: string;
  toStatus: string;
  /** The case's (its quote's) status right after the change. */
  caseStatus: string;
  transition: string;
}

/** The event a status change is published as. */
export function statusChangedEventOf(change: StatusChange): StatusChangedEvent {
  return {
    id: change.id,
    event: STATUS_CHANGED_EVENT,
    occurredAt: change.occurredAt.toISOString(),
    version: 1,
    data: {
      financingCaseId: change.financingCaseId,
      quoteId: change.quoteId,
      resourceType: change.resourceType,
      fromStatus: change.fromStatus,
      toStatus: change.toStatus,
      status: change.caseStatus,
      transition: change.transition,
    },
    partnerId: change.partnerId,
    environment: change.environment,
  };
}

/**
 * A mail a service asks for: it writes this through its outbox in the transaction of the change
 * that causes it; notifications consumes it durably, stores it once (by id) and sends it to
 * SMTP_URL. The recipient is a partner (notifications looks up its address) or an address.
 */
export const MAIL_REQUESTED_SUBJECT = 'mail.requested';

export const MAIL_KINDS = ['customer_link', 'review_reminder', 'review_expired', 'documents_overdue', 'document_rejected'] as const;

export const mailRecipient = z.union([z.object({ partnerId: z.string().min(1) }).strict(), z.object({ email: z.email() }).strict()]);

export const mailRequestedEvent = z.object({
  /** Unique per mail; a second message with the same id is the same mail. */
  id: z.string().min(1).max(100),
  kind: z
    .string()
    .min(1)
    .max(40)
    .describe(`One of ${MAIL_KINDS.join(', ')} or a kind a later service adds`),
  recipient: mailRecipient,
  subject: z.string().min(1).max(300),
  text: z.string().min(1).max(20_000),
  financingCaseId: z.string().nullable(),
  environment: z.string(),
});

export type MailRequestedEvent = z.infer<typeof mailRequestedEvent>;
export type MailRecipient = z.infer<typeof mailRecipient>;
