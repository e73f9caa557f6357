import type { StatusChangedEvent } from '@rental/proto';
import type {
  DeliveryHistory,
  RedeliveryOutcome,
  TestEvent,
  CreateOutcome,
  NewEndpoint,
  WebhookEndpoint,
  MailJob,
  MailMessage,
  MailNext,
  PartnerContacts,
  RecipientRole,
  RequestedMailJob,
  InboxResult,
  ResolvedAddress,
} from './model';

/** What notifications' domain needs from outside it: data-access implements each (tables, SMTP, DNS, case-workflow). */
export interface RequestedMailStore {
  /**
   * Stores the request once, leased for `leaseMs` when given (the worker storing it runs it
   * at once); answers it as a job, undefined when its id was stored before.
   */
  add(
    request: {
      id: string;
      kind: string;
      recipient: RequestedMailJob['recipient'];
      subject: string;
      text: string;
      financingCaseId: string | null;
    },
    leaseMs?: number,
  ): Promise<RequestedMailJob | undefined>;
  claimDue(limit: number, leaseMs: number): Promise<RequestedMailJob[]>;
  complete(job: RequestedMailJob, next: MailNext): Promise<void>;
  nextDueAt(): Promise<Date | undefined>;
}

export interface PartnerDirectory {
  /** Undefined when the partner is unknown. */
  contactsOf(partnerId: string): Promise<PartnerContacts | undefined>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface MailStore {
  claimDue(limit: number, leaseMs: number): Promise<MailJob[]>;
  complete(job: MailJob, next: MailNext): Promise<void>;
  nextDueAt(): Promise<Date | undefined>;
}

export interface EventInbox {
  /**
   * In one transaction: stores the event unless its id is known, creates one pending delivery
   * per active endpoint of its partner and queues its mail.
   */
  record(event: StatusChangedEvent, body: string, mailTo: RecipientRole[]): Promise<InboxResult>;
}

export interface DeliveryHistoryReader {
  /** Deliveries of one endpoint, newest first, each with its attempts in order. */
  history(partnerId: string, endpointId: string, limit: number, offset: number): Promise<DeliveryHistory[]>;
}

export interface SecretRotationStore {
  /**
   * Makes `secret` the endpoint's secret; the one it replaces keeps signing until
   * `previousExpiresAt` (null: not at all). False when there is no such endpoint.
   */
  rotateSecret(partnerId: string, id: string, secret: string, previousExpiresAt: Date | null): Promise<boolean>;
}

export interface RedeliveryStore extends DeliveryHistoryReader {
  /** Delivers the event to the endpoint again like a new delivery (first attempt now, the same retries); answers it as queued. */
  redeliver(partnerId: string, endpointId: string, eventId: string): Promise<RedeliveryOutcome>;
  /** Redelivers every dropped delivery of the endpoint created at or after `since`; how many. */
  redeliverDroppedSince(partnerId: string, endpointId: string, since: Date): Promise<number>;
  /** Stores the event and one pending delivery of it to this endpoint only; answers that delivery. */
  queueTestEvent(endpointId: string, event: TestEvent): Promise<DeliveryHistory>;
}

export interface HostResolver {
  /** Every address of a host name; an empty list when it has none. Rejects when it cannot be resolved. */
  resolve(host: string): Promise<ResolvedAddress[]>;
}

export interface EndpointStore {
  /** Inserts unless the partner has the normalized URL already or `limit` endpoints; atomic per partner. */
  create(endpoint: NewEndpoint, limit: number): Promise<CreateOutcome>;
  list(partnerId: string, limit: number, offset: number): Promise<WebhookEndpoint[]>;
  find(partnerId: string, id: string): Promise<WebhookEndpoint | undefined>;
  /** The partner of a live endpoint, whoever asks; undefined when there is none. */
  ownerOf(id: string): Promise<string | undefined>;
  /** Pausing also drops the deliveries still pending, so resuming does not replay them. */
  setActive(partnerId: string, id: string, active: boolean): Promise<WebhookEndpoint | undefined>;
  /** Soft delete; drops pending deliveries. False when there is no such endpoint. */
  delete(partnerId: string, id: string): Promise<boolean>;
}

/** A partner's budget of one webhook tool (test events, redeliveries) for the current window, shared by every replica. */
export interface ToolBudget {
  take(partnerId: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
}
