import type { StatusChangedEvent } from '@rental/proto';
import type { TraceOrigin } from '@rental/logger';

export interface AttemptHistory {
  attempt: number;
  attemptedAt: string;
  /** Null when no answer came (timeout, connection error, address refused). */
  statusCode: number | null;
  durationMs: number;
  succeeded: boolean;
  error: string | null;
}

export interface DeliveryHistory {
  eventId: string;
  /** The event type: financing_case.status_changed, or webhook_endpoint.test for a test event. */
  event: string;
  status: 'pending' | 'succeeded' | 'dropped';
  dropReason: string | null;
  attemptCount: number;
  nextAttemptAt: string | null;
  createdAt: string;
  completedAt: string | null;
  occurredAt: string;
  attempts: AttemptHistory[];
}

export type RedeliveryOutcome = { status: 'queued'; delivery: DeliveryHistory } | { status: 'still_pending' } | { status: 'unknown' };

export interface TestEvent {
  id: string;
  partnerId: string;
  environment: string;
  occurredAt: string;
  /** The exact bytes the endpoint receives. */
  body: string;
  event: string;
}

export interface WebhookEndpoint {
  id: string;
  partnerId: string;
  url: string;
  active: boolean;
  createdAt: string;
}

export interface NewEndpoint extends WebhookEndpoint {
  normalizedUrl: string;
  secret: string;
}

export type CreateOutcome = 'created' | 'duplicate' | 'limit_reached';

export type RecipientRole = 'partner' | 'financing_partner' | 'distribution_hub';

export interface Contact {
  name: string;
  /** Undefined when no address is known. */
  email?: string;
}

export interface PartnerContacts {
  partner: Contact;
  financingPartner?: Contact;
  distributionHub?: Contact;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface MailJob extends TraceOrigin {
  id: string;
  partnerId: string;
  role: RecipientRole;
  /** Number of the attempt about to be made, from 1. */
  attempt: number;
  event: StatusChangedEvent;
}

export type MailNext =
  | { status: 'sent' | 'logged'; message: MailMessage }
  | { status: 'skipped'; reason: string }
  | { status: 'pending'; nextAttemptAt: Date; error: string }
  | { status: 'failed'; error: string };

/** A mail another service asked for (mail.requested), as stored. */
export interface RequestedMailJob extends TraceOrigin {
  id: string;
  kind: string;
  recipient: { partnerId: string } | { email: string };
  subject: string;
  text: string;
  /** Number of the attempt about to be made, from 1. */
  attempt: number;
}

export interface InboxResult {
  /** False when the event id was already stored: a redelivery creates nothing. */
  stored: boolean;
  deliveries: number;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
