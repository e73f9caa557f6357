import { ulid, ulidToUUID } from '@rental/ids';
import { OutboxMessage, enqueueOutbox, outboxInsert } from '@rental/bus';
import { statusChangeSubject, statusChangedEventOf } from '@rental/proto';
import { Knex, isUniqueViolation } from '@rental/db';
import { currentOrigin } from '@rental/logger';
import { CONTRACT_REMOVED, ContractMove, ContractPlace, EnvelopeStatus, nextContractPlace } from '../domain/contract/contract-machine';
import { ResourceType, nextOccurredAt } from '../domain/shared/events';
import type {
  Actor,
  AuditContext,
  AuthorizedPerson,
  Contract,
  EnvelopeRecipient,
  FinancingCase,
  Quote,
  QuoteFeedbackAction,
  SignatureEnvelope,
} from '../domain/shared/model';
import { hashCustomerToken, newCustomerToken } from '../domain/customer/customer-token';
import type { MailRequest } from '../domain/shared/ports';
import type { CaseTransaction } from '../domain/case/ports';
import type { LockedLenderSubmission } from '../domain/lender/ports';
import type { IssuedCustomerLink, NewCustomerLink } from '../domain/customer/ports';
import type { EnvelopeVoidReason, NewAuthorizedPerson, ProviderEnvelope, SigningStatement } from '../domain/signing/ports';
import { MoveFlags, QuoteMove, QuoteStatus, nextQuoteStatus } from '../domain/quote/quote-machine';
import { CustomerLinkEnd, quoteStatusEntry } from '../domain/quote/quote-entry';
import {
  CaseRow,
  ContractRow,
  EnvelopeRow,
  PersonRow,
  ProviderEnvelopeRow,
  QuoteRow,
  caseWithQuote,
  toContract,
  toEnvelope,
  toPerson,
  toProviderEnvelope,
  toQuote,
} from './rows';

/** Records a callback as applied, with the change it made or on its own; false when it was recorded before. */
export async function recordAppliedCallback(db: Knex | Knex.Transaction, sender: string, webhookId: string, at: Date): Promise<boolean> {
  const inserted = (await db('applied_callbacks')
    .insert({ sender, webhook_id: webhookId, applied_at: at })
    .onConflict(['sender', 'webhook_id'])
    .ignore()
    .returning('webhook_id')) as unknown[];
  return inserted.length === 1;
}

/** The outbox message of a mail about a case: notifications sends it once the transaction committed. */
export function mailMessage(settings: Pick<EventSettings, 'mailSubject' | 'environment'>, financingCaseId: string, mail: MailRequest, at: Date): OutboxMessage {
  const id = ulid(at.getTime());
  return { messageId: ulidToUUID(id), subject: settings.mailSubject, payload: { id, ...mail, financingCaseId, environment: settings.environment } };
}

/** A customer link's row; only the token's hash is stored. */
export function customerLinkRow(financingCase: { id: string; quoteId: string }, token: string, link: NewCustomerLink, at: Date): Record<string, unknown> {
  return {
    financing_case_id: financingCase.id,
    quote_id: financingCase.quoteId,
    token_hash: hashCustomerToken(token),
    email: link.email,
    view_only: link.viewOnly,
    created_at: at,
    expires_at: link.expiresAt,
  };
}

/** A row of the case's history. */
export function historyRow(financingCaseId: string, actor: Actor, entry: HistoryEntry): Record<string, unknown> {
  return {
    financing_case_id: financingCaseId,
    at: entry.at,
    actor_type: actor.type,
    actor_id: actor.id,
    actor_name: actor.name,
    action: entry.action,
    resource_type: entry.resourceType ?? null,
    from_status: entry.fromStatus ?? null,
    to_status: entry.toStatus ?? null,
    reason: entry.reason,
    details: entry.details ? JSON.stringify(entry.details) : null,
  };
}

export interface HistoryEntry {
  at: Date;
  action: string;
  resourceType?: string;
  fromStatus?: string;
  toStatus?: string;
  reason: string | null;
  details?: Record<string, unknown> | null;
  /** Default: the transaction's actor. */
  actor?: Actor;
}

/** A status change as the outbox, the case's history and the partner's webhooks carry it. */
export interface StatusEvent {
  occurredAt: Date;
  resourceType: ResourceType;
  fromStatus: string;
  toStatus: string;
  transition: string;
  /** The case's (its quote's) status once the change is made. */
  caseStatus: string;
}

type QuoteChanges = Record<string, unknown> & { status: string };

/** The quote's columns a move to `to` at `at` writes, with what the domain says entering `to` does to the review. */
export function quoteStatusChanges(to: QuoteStatus, at: Date): QuoteChanges {
  const review = quoteStatusEntry(to).startsReview
    ? { in_review_since: at, reminder_count: 0, last_reminder_at: null, review_mailed_at: at }
    : { in_review_since: null };
  return { status: to, status_updated_at: at, ...review };
}

/** The quote's columns a queued lender submission writes. */
export const LENDER_SUBMISSION_QUEUED = { lender_submission_status: 'pending' };

/** A pending lender submission of the quote, due now; the worker submits it under the trace of the work that queued it. */
export function lenderSubmissionRow(
  settings: Pick<EventSettings, 'now'>,
  caseRow: CaseRow,
  quoteRow: QuoteRow,
): Record<string, unknown> & { created_at: Date } {
  // Work queues of the workers run on the wall clock, whatever the case's own clock says.
  const now = settings.now();
  const origin = currentOrigin();
  return {
    application_id: ulid(),
    quote_id: quoteRow.id,
    financing_case_id: caseRow.id,
    partner_id: caseRow.partner_id,
    lender_id: quoteRow.financing_partner_id,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
    request_id: origin.requestId,
    traceparent: origin.traceparent,
  };
}

/** Calls `wake` once the transaction committed (a worker of this process then looks at once). */
export function wakeOnCommit(trx: Knex.Transaction, wake: (() => void) | undefined): void {
  if (wake) trx.executionPromise.then(wake, () => undefined);
}

/**
 * The outbox rows (the events, then `mails`) and history lines of status events of a case, as
 * one multi-row insert each, rows in the events' order; not yet run, to go in one statement with
 * the case's other writes.
 */
export function statusEventWrites(
  trx: Knex.Transaction,
  settings: EventSettings,
  caseRow: CaseRow,
  quoteRow: QuoteRow,
  events: StatusEvent[],
  by: { actor: Actor; reason: string | null },
  mails: OutboxMessage[] = [],
): { outbox: Knex.QueryBuilder; history: Knex.QueryBuilder } {
  const messages = events.map((event) => {
    const id = ulid(event.occurredAt.getTime());
    const payload = statusChangedEventOf({
      id,
      occurredAt: event.occurredAt,
      financingCaseId: caseRow.id,
      quoteId: quoteRow.id,
      partnerId: caseRow.partner_id,
      environment: settings.environment,
      resourceType: event.resourceType,
      fromStatus: event.fromStatus,
      toStatus: event.toStatus,
      caseStatus: event.caseStatus,
      transition: event.transition,
    });
    // The outbox keys messages by UUID; a ULID is 128 bits too, so the event id maps onto one.
    return { messageId: ulidToUUID(id), subject: statusChangeSubject(settings.subject, payload.data), payload };
  });
  return {
    outbox: outboxInsert(trx, [...messages, ...mails]),
    history: trx('case_history').insert(
      events.map((event) =>
        historyRow(caseRow.id, by.actor, {
          at: event.occurredAt,
          action: event.transition,
          resourceType: event.resourceType,
          fromStatus: event.fromStatus,
          toStatus: event.toStatus,
          reason: by.reason,
        }),
      ),
    ),
  };
}

export interface EventSettings {
  environment: string;
  /** Full subject of status changes on this stack's bus; each goes to its transition's subject below it. */
  subject: string;
  /** Full subject of mail requests on this stack's bus. */
  mailSubject: string;
  now(): Date;
  /** Called once a transaction that queued a lender submission committed. */
  onLenderSubmissionQueued?: () => void;
  /** Called once a transaction that queued an envelope void, or reserved an envelope that may become one, committed. */
  onEnvelopeVoidQueued?: () => void;
}

/**
 * The work on one locked case. Every status change computes the case's next occurredAt, writes
 * the new status with that time as statusUpdatedAt and enqueues exactly one outbox event, all in
 * the caller's transaction.
 */
export class KnexCaseTransaction implements CaseTransaction {
  constructor(
    private readonly trx: Knex.Transaction,
    private readonly settings: EventSettings,
    private caseRow: CaseRow,
    private quoteRow: QuoteRow,
    private contractRow: ContractRow | null,
    private envelopeRow: EnvelopeRow | null,
    private readonly audit: AuditContext,
  ) {
    this.reason = audit.reason ?? null;
  }

  /** The reason of the changes that follow (see setAuditReason). */
  private reason: string | null;

  setAuditReason(reason: string | null): void {
    this.reason = reason;
  }

  /** Set while the sandbox clock applies an effect at its own time. */
  private pinnedAt: Date | null = null;

  now(): Date {
    return this.pinnedAt ?? new Date(this.settings.now().getTime() + Number(this.caseRow.clock_offset_ms));
  }

  pinClock(at: Date | null): void {
    this.pinnedAt = at;
  }

  async setClockOffset(offsetMs: number): Promise<void> {
    const [row] = (await this.trx('financing_cases').where({ id: this.caseRow.id }).update({ clock_offset_ms: offsetMs }).returning('*')) as CaseRow[];
    this.caseRow = row as CaseRow;
  }

  get financingCase(): FinancingCase {
    return caseWithQuote(this.caseRow, this.quoteRow);
  }

  get quote(): Quote {
    return toQuote(this.quoteRow);
  }

  get contract(): Contract | null {
    return this.contractRow ? toContract(this.contractRow) : null;
  }

  get envelope(): SignatureEnvelope | null {
    return this.envelopeRow ? toEnvelope(this.envelopeRow) : null;
  }

  async moveQuote(move: QuoteMove, flags: MoveFlags = {}): Promise<void> {
    const from = this.quoteRow.status as QuoteStatus;
    const to = nextQuoteStatus(from, move, flags);
    await this.changeQuoteStatus(from, to, move);
  }

  async resetQuote(target: QuoteStatus): Promise<void> {
    const from = this.quoteRow.status as QuoteStatus;
    if (from !== target) await this.changeQuoteStatus(from, target, 'reset');
  }

  async moveQuotes(moves: QuoteMove[]): Promise<void> {
    const events: StatusEvent[] = [];
    let quoteChanges: QuoteChanges | undefined;
    let status = this.quoteRow.status as QuoteStatus;
    let previous = this.caseRow.last_event_at;
    for (const move of moves) {
      const to = nextQuoteStatus(status, move);
      const at = nextOccurredAt(this.now(), previous);
      await this.endCustomerLinksOnEntry(to);
      events.push({ occurredAt: at, resourceType: 'quote', fromStatus: status, toStatus: to, transition: move, caseStatus: to });
      quoteChanges = { ...quoteChanges, ...quoteStatusChanges(to, at) };
      status = to;
      previous = at;
    }
    if (events.length > 0) await this.emitAll(events, quoteChanges);
  }

  private async changeQuoteStatus(from: QuoteStatus, to: QuoteStatus, transition: string): Promise<void> {
    const at = this.nextEventTime();
    await this.endCustomerLinksOnEntry(to);
    await this.emit(at, 'quote', from, to, transition, quoteStatusChanges(to, at));
  }

  /** The customer's links end when the domain says entering `to` ends them (a canceled case, an expired review). */
  private async endCustomerLinksOnEntry(to: QuoteStatus): Promise<void> {
    const { endsCustomerLinks } = quoteStatusEntry(to);
    if (endsCustomerLinks) await this.invalidateCustomerLinks(endsCustomerLinks);
  }

  /** A statement: awaited on its own, or sent along with another one (see issueCustomerLink). */
  private invalidateCustomerLinks(reason: CustomerLinkEnd | 'replaced'): Knex.QueryBuilder {
    return this.trx('customer_links')
      .where({ financing_case_id: this.caseRow.id })
      .whereNull('invalidated_at')
      .update({ invalidated_at: this.now(), invalidated_reason: reason });
  }

  async issueCustomerLink(link: NewCustomerLink): Promise<IssuedCustomerLink> {
    const token = newCustomerToken();
    // Replacing: the earlier links end in the same statement (one round trip); the WITH does not
    // see the row the statement inserts, so the new link stays valid.
    const statement: Knex.QueryBuilder = link.replace
      ? this.trx.queryBuilder().with('replaced_links', this.invalidateCustomerLinks('replaced')).from('customer_links')
      : this.trx('customer_links');
    await statement.insert(customerLinkRow({ id: this.caseRow.id, quoteId: this.quoteRow.id }, token, link, this.now()));
    return { token, expiresAt: link.expiresAt.toISOString() };
  }

  async markReviewMailed(): Promise<void> {
    await this.updateQuote({ review_mailed_at: this.now() });
  }

  async recordReminder(): Promise<void> {
    const now = this.now();
    await this.updateQuote({ reminder_count: this.quoteRow.reminder_count + 1, last_reminder_at: now, review_mailed_at: now });
  }

  async currentCustomerLink(): Promise<{ email: string | null; expiresAt: string } | null> {
    const row = await this.trx('customer_links')
      .where({ financing_case_id: this.caseRow.id, view_only: false })
      .whereNull('invalidated_at')
      .where('expires_at', '>', this.now())
      .orderBy('id', 'desc')
      .first('email', 'expires_at');
    return row ? { email: row.email, expiresAt: (row.expires_at as Date).toISOString() } : null;
  }

  async nextCustomerLinkExpiry(after: Date): Promise<Date | null> {
    const row = (await this.trx('customer_links')
      .where({ financing_case_id: this.caseRow.id })
      .whereNull('invalidated_at')
      .where('expires_at', '>', after)
      .min('expires_at as next')
      .first()) as { next: Date | null } | undefined;
    return row?.next ?? null;
  }

  async claimOverdueNotice(item: { type: string; id: number }): Promise<boolean> {
    const inserted = await this.trx('overdue_notices')
      .insert({ item_type: item.type, item_id: item.id, financing_case_id: this.caseRow.id, notified_at: this.now() })
      .onConflict(['item_type', 'item_id'])
      .ignore()
      .returning('item_id');
    return inserted.length > 0;
  }

  async requestMail(mail: MailRequest): Promise<void> {
    await enqueueOutbox(this.trx, mailMessage(this.settings, this.caseRow.id, mail, this.now()));
  }

  async createContract(id = ulid()): Promise<Contract> {
    return this.insertContract('wait_for_signing', 'create', id);
  }

  private async insertContract(place: ContractPlace, transition: string, id = ulid()): Promise<Contract> {
    const at = this.nextEventTime();
    const [row] = (await this.trx('contracts')
      .insert({
        id,
        financing_case_id: this.caseRow.id,
        quote_id: this.quoteRow.id,
        partner_id: this.caseRow.partner_id,
        contract_number: null,
        status: place,
        status_updated_at: at,
        created_at: at,
        updated_at: at,
      })
      .returning('*')) as ContractRow[];
    this.contractRow = row as ContractRow;
    await this.emit(at, 'contract', 'new', place, transition);
    return toContract(this.contractRow);
  }

  async moveContract(move: ContractMove): Promise<void> {
    const contract = this.requireContract();
    await this.changeContractPlace(contract.status as ContractPlace, nextContractPlace(contract.status as ContractPlace, move), move);
  }

  async resetContract(target: ContractPlace): Promise<void> {
    if (!this.contractRow) {
      await this.insertContract(target, 'reset');
      return;
    }
    const from = this.contractRow.status as ContractPlace;
    if (from !== target) await this.changeContractPlace(from, target, 'reset');
  }

  private async changeContractPlace(from: ContractPlace, to: ContractPlace, transition: string): Promise<void> {
    const at = this.nextEventTime();
    const [row] = (await this.trx('contracts')
      .where({ id: this.requireContract().id })
      .update({ status: to, status_updated_at: at, updated_at: at })
      .returning('*')) as ContractRow[];
    this.contractRow = row as ContractRow;
    await this.emit(at, 'contract', from, to, transition);
  }

  async deleteContract(): Promise<void> {
    if (!this.contractRow) return;
    const from = this.contractRow.status;
    await this.trx('signature_envelopes').where({ contract_id: this.contractRow.id }).delete();
    await this.trx('contracts').where({ id: this.contractRow.id }).delete();
    this.contractRow = null;
    this.envelopeRow = null;
    // A rewind that removes the contract says so, so receivers do not keep a contract that is gone.
    await this.emit(this.nextEventTime(), 'contract', from, CONTRACT_REMOVED, 'reset');
  }

  async sendEnvelope(recipients: EnvelopeRecipient[], id = ulid()): Promise<SignatureEnvelope> {
    const contract = this.requireContract();
    const now = this.now();
    await this.trx('signature_envelopes').where({ contract_id: contract.id }).delete();
    const [row] = (await this.trx('signature_envelopes')
      .insert({
        id,
        contract_id: contract.id,
        status: 'sent',
        recipients: JSON.stringify(recipients),
        decline_reason: null,
        created_at: now,
        updated_at: now,
      })
      .returning('*')) as EnvelopeRow[];
    this.envelopeRow = row as EnvelopeRow;
    return toEnvelope(this.envelopeRow);
  }

  async setEnvelopeStatus(status: EnvelopeStatus, declineReason: string | null = null): Promise<void> {
    if (!this.envelopeRow) throw new Error('no signature envelope to change');
    const [row] = (await this.trx('signature_envelopes')
      .where({ id: this.envelopeRow.id })
      .update({ status, decline_reason: status === 'declined' ? declineReason : null, updated_at: this.now() })
      .returning('*')) as EnvelopeRow[];
    this.envelopeRow = row as EnvelopeRow;
  }

  async deleteEnvelope(): Promise<void> {
    if (!this.envelopeRow) return;
    await this.trx('signature_envelopes').where({ id: this.envelopeRow.id }).delete();
    this.envelopeRow = null;
  }

  async setRejectionReason(reason: string | null): Promise<void> {
    if (this.caseRow.rejection_reason === reason) return;
    const [row] = (await this.trx('financing_cases')
      .where({ id: this.caseRow.id })
      .update({ rejection_reason: reason, updated_at: this.now() })
      .returning('*')) as CaseRow[];
    this.caseRow = row as CaseRow;
  }

  async markFinancingRequest(): Promise<void> {
    if (this.caseRow.financing_request) return;
    const [row] = (await this.trx('financing_cases')
      .where({ id: this.caseRow.id })
      .update({ financing_request: true, updated_at: this.now() })
      .returning('*')) as CaseRow[];
    this.caseRow = row as CaseRow;
  }

  async addQuoteFeedback(action: QuoteFeedbackAction, text: string | null): Promise<void> {
    await this.trx('quote_feedbacks').insert({ quote_id: this.quoteRow.id, action, text, created_at: this.now() });
  }

  async replaceAuthorizedPersons(persons: NewAuthorizedPerson[]): Promise<AuthorizedPerson[]> {
    const now = this.now();
    await this.trx('authorized_persons').where({ quote_id: this.quoteRow.id }).delete();
    const rows = (await this.trx('authorized_persons')
      .insert(
        persons.map((person) => ({
          quote_id: this.quoteRow.id,
          first_name: person.firstName,
          last_name: person.lastName,
          email: person.email,
          confirmed_by_external: false,
          solo_signee_permitted: person.soloSigneePermitted,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning('*')) as PersonRow[];
    return rows.sort((a, b) => a.id - b.id).map(toPerson);
  }

  async authorizedPersons(): Promise<AuthorizedPerson[]> {
    const rows: PersonRow[] = await this.trx('authorized_persons').where({ quote_id: this.quoteRow.id }).orderBy('id');
    return rows.map(toPerson);
  }

  async activateFinancingResponse(decision: 'review' | 'accepted'): Promise<void> {
    const active = await this.trx('financing_responses').where({ quote_id: this.quoteRow.id, active: true }).select('decision');
    if (active.length === 1 && active[0].decision === decision) return;
    await this.deactivateFinancingResponses();
    await this.trx('financing_responses').insert({ quote_id: this.quoteRow.id, decision, active: true, created_at: this.now() });
  }

  async deactivateFinancingResponses(): Promise<void> {
    await this.trx('financing_responses').where({ quote_id: this.quoteRow.id, active: true }).update({ active: false });
  }

  async queueLenderSubmission(): Promise<void> {
    const submission = lenderSubmissionRow(this.settings, this.caseRow, this.quoteRow);
    // One case, one live submission: an earlier one still waiting for a retry would otherwise
    // send the lender a second application for the case.
    await this.trx('lender_submissions')
      .where({ financing_case_id: this.caseRow.id })
      .whereNull('superseded_at')
      .update({ superseded_at: submission.created_at });
    await this.updateQuote(LENDER_SUBMISSION_QUEUED, this.trx.queryBuilder().with('submission', this.trx('lender_submissions').insert(submission)));
    wakeOnCommit(this.trx, this.settings.onLenderSubmissionQueued);
  }

  async lockLatestLenderSubmission(): Promise<LockedLenderSubmission | undefined> {
    const row: { application_id: string; status: LockedLenderSubmission['status']; lease_until: Date | null } | undefined = await this.trx('lender_submissions')
      .where({ financing_case_id: this.caseRow.id })
      .orderBy('id', 'desc')
      .forUpdate()
      .first('application_id', 'status', 'lease_until');
    if (!row) return undefined;
    // The claim leases the row and counts the attempt but keeps the previous outcome's status until this one's is recorded.
    return { applicationId: row.application_id, status: row.status, inFlight: row.lease_until !== null && row.lease_until > this.settings.now() };
  }

  async setSigningStatement(statement: SigningStatement | null): Promise<void> {
    await this.updateQuote({ signing_statement: statement === null ? null : JSON.stringify(statement) });
  }

  async setFinancingNumber(reference: string): Promise<void> {
    if (this.quoteRow.financing_number !== reference) await this.updateQuote({ financing_number: reference });
  }

  markCallbackApplied(sender: string, webhookId: string): Promise<boolean> {
    return recordAppliedCallback(this.trx, sender, webhookId, this.settings.now());
  }

  async providerEnvelopes(): Promise<ProviderEnvelope[]> {
    const rows: ProviderEnvelopeRow[] = await this.trx('provider_envelopes')
      .where({ financing_case_id: this.caseRow.id })
      .whereIn('state', ['requested', 'accepted'])
      .orderBy('created_at')
      .forUpdate();
    return rows.map(toProviderEnvelope);
  }

  async reserveProviderEnvelope(reservation: { envelopeId: string; contractId: string; persons: NewAuthorizedPerson[]; requestedUntil: Date }): Promise<void> {
    // Should the request be abandoned, its void runs under the trace of the request that reserved it.
    const origin = currentOrigin();
    await this.trx('provider_envelopes').insert({
      request_id: origin.requestId,
      traceparent: origin.traceparent,
      envelope_id: reservation.envelopeId,
      financing_case_id: this.caseRow.id,
      contract_id: reservation.contractId,
      provider_envelope_id: null,
      state: 'requested',
      persons: JSON.stringify(reservation.persons),
      request_attempts: 1,
      requested_until: reservation.requestedUntil,
      created_at: this.settings.now(),
    });
    // The void worker sleeps until the next void falls due; an abandoned request becomes one.
    wakeOnCommit(this.trx, this.settings.onEnvelopeVoidQueued);
  }

  async retryProviderEnvelope(envelopeId: string, requestedUntil: Date): Promise<void> {
    await this.trx('provider_envelopes')
      .where({ envelope_id: envelopeId, state: 'requested' })
      .update({ request_attempts: this.trx.raw('request_attempts + 1'), requested_until: requestedUntil });
  }

  async acceptProviderEnvelope(envelopeId: string, providerEnvelopeId: string | null): Promise<void> {
    await this.trx('provider_envelopes')
      .where({ envelope_id: envelopeId })
      .update({ state: 'accepted', requested_until: null, provider_envelope_id: this.trx.raw('coalesce(?, provider_envelope_id)', [providerEnvelopeId]) });
  }

  async forgetProviderEnvelope(envelopeId: string): Promise<void> {
    await this.trx('provider_envelopes').where({ envelope_id: envelopeId, state: 'requested' }).delete();
  }

  async queueEnvelopeVoid(envelopeId: string, reason: EnvelopeVoidReason, dueAt: Date): Promise<void> {
    // The worker voids it under the trace of the request that replaced it.
    const origin = currentOrigin();
    await this.trx('provider_envelopes')
      .where({ envelope_id: envelopeId })
      .whereIn('state', ['requested', 'accepted'])
      .update({ state: 'voiding', void_reason: reason, void_next_attempt_at: dueAt, request_id: origin.requestId, traceparent: origin.traceparent });
    wakeOnCommit(this.trx, this.settings.onEnvelopeVoidQueued);
  }

  async setProviderEnvelopeId(envelopeId: string, providerEnvelopeId: string): Promise<void> {
    await this.trx('provider_envelopes').where({ envelope_id: envelopeId }).update({ provider_envelope_id: providerEnvelopeId });
  }

  async setContractNumber(contractNumber: string): Promise<boolean> {
    const contract = this.requireContract();
    if (contract.contract_number === contractNumber) return true;
    const taken = await this.trx('contracts')
      .where({ partner_id: contract.partner_id, contract_number: contractNumber })
      .whereNot({ id: contract.id })
      .first('id');
    if (taken) return false;
    try {
      // A savepoint: a number taken meanwhile by another transaction leaves this one usable.
      const [row] = (await this.trx.transaction(async (savepoint) =>
        savepoint('contracts').where({ id: contract.id }).update({ contract_number: contractNumber, updated_at: this.now() }).returning('*'),
      )) as ContractRow[];
      this.contractRow = row as ContractRow;
      return true;
    } catch (error) {
      if (isUniqueViolation(error, 'contracts_partner_contract_number_unique')) return false;
      throw error;
    }
  }

  async recordHistory(action: string, entry: { reason?: string | null; details?: Record<string, unknown> | null; actor?: Actor } = {}): Promise<void> {
    await this.insertHistory({ at: this.now(), action, reason: entry.reason ?? this.reason, details: entry.details ?? null, actor: entry.actor });
  }

  /** A statement: awaited on its own, or sent along with another one (see emitAll); several entries go in their order. */
  private insertHistory(entries: HistoryEntry | HistoryEntry[]): Knex.QueryBuilder {
    return this.trx('case_history').insert(
      (Array.isArray(entries) ? entries : [entries]).map((entry) => historyRow(this.caseRow.id, entry.actor ?? this.audit.actor, entry)),
    );
  }

  private requireContract(): ContractRow {
    if (!this.contractRow) throw new Error('the case has no contract');
    return this.contractRow;
  }

  /** `withWrites`, other writes of this transaction as WITH clauses, go in the same statement (one round trip). */
  private async updateQuote(changes: Record<string, unknown>, withWrites?: Knex.QueryBuilder): Promise<void> {
    const statement: Knex.QueryBuilder = withWrites ? withWrites.from('quotes') : this.trx('quotes');
    const [row] = (await statement
      .where({ id: this.quoteRow.id })
      .update({ ...changes, updated_at: this.now() })
      .returning('*')) as QuoteRow[];
    this.quoteRow = row as QuoteRow;
  }

  private nextEventTime(): Date {
    return nextOccurredAt(this.now(), this.caseRow.last_event_at);
  }

  /** `quoteChanges`: the quote's new status (and what goes with it), written in the same statement. */
  private emit(
    occurredAt: Date,
    resourceType: ResourceType,
    fromStatus: string,
    toStatus: string,
    transition: string,
    quoteChanges?: QuoteChanges,
  ): Promise<void> {
    return this.emitAll(
      [{ occurredAt, resourceType, fromStatus, toStatus, transition, caseStatus: quoteChanges?.status ?? this.quoteRow.status }],
      quoteChanges,
    );
  }

  /**
   * Status events in their order: their outbox rows, their history lines, the case's last event
   * time and the quote's new status go in one statement (one round trip); the case row is brought
   * up to date here, with exactly the two values written.
   */
  private async emitAll(events: StatusEvent[], quoteChanges?: QuoteChanges): Promise<void> {
    const { outbox, history } = statusEventWrites(this.trx, this.settings, this.caseRow, this.quoteRow, events, {
      actor: this.audit.actor,
      reason: this.reason,
    });
    const caseChanges = { last_event_at: (events.at(-1) as StatusEvent).occurredAt, updated_at: this.now() };
    const statement = this.trx.queryBuilder().with('event_outbox', outbox).with('event_history', history);
    if (quoteChanges)
      await this.updateQuote(quoteChanges, statement.with('event_case', this.trx('financing_cases').where({ id: this.caseRow.id }).update(caseChanges)));
    else await statement.from('financing_cases').where({ id: this.caseRow.id }).update(caseChanges);
    this.caseRow = { ...this.caseRow, ...caseChanges };
  }
}
