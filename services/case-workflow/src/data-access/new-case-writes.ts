import type { OutboxMessage } from '@rental/bus';
import type { Knex } from '@rental/db';
import { newCustomerToken } from '../domain/customer/customer-token';
import { quoteStatusEntry } from '../domain/quote/quote-entry';
import { QuoteMove, QuoteStatus, nextQuoteStatus } from '../domain/quote/quote-machine';
import { nextOccurredAt } from '../domain/shared/events';
import type { AuditContext, FinancingCase, Quote } from '../domain/shared/model';
import type { MailRequest } from '../domain/shared/ports';
import type { CaseCreationWork } from '../domain/case/ports';
import type { IssuedCustomerLink, NewCustomerLink } from '../domain/customer/ports';
import {
  EventSettings,
  LENDER_SUBMISSION_QUEUED,
  StatusEvent,
  customerLinkRow,
  lenderSubmissionRow,
  mailMessage,
  quoteStatusChanges,
  statusEventWrites,
  wakeOnCommit,
} from './case-transaction';
import { CaseRow, QuoteRow, caseWithQuote, toQuote } from './rows';

/**
 * A case being created, after the insert of its case, quote and items: what its creation does
 * to it (moves, a lender submission, a customer link, mails) is kept in memory and written by
 * `write` in one statement, instead of a round trip each. Nothing outside the transaction sees
 * the case before it commits, and nothing in it is read back, so holding the writes changes no
 * outcome: a checkout's case is two statements of its transaction instead of seven.
 */
export class NewCaseWrites implements CaseCreationWork {
  /** The case's events in order, its creation first. */
  private readonly events: StatusEvent[];
  private quoteChanges: Record<string, unknown> = {};
  private readonly links: Record<string, unknown>[] = [];
  private readonly submissions: Record<string, unknown>[] = [];
  private readonly mails: OutboxMessage[] = [];

  constructor(
    private caseRow: CaseRow,
    private quoteRow: QuoteRow,
    private readonly settings: EventSettings,
    private readonly audit: AuditContext,
  ) {
    // The creation is the case's first event, at the quote's statusUpdatedAt.
    const at = quoteRow.status_updated_at;
    this.events = [{ occurredAt: at, resourceType: 'quote', fromStatus: 'new', toStatus: quoteRow.status, transition: 'create', caseStatus: quoteRow.status }];
    this.caseRow = { ...caseRow, last_event_at: at };
  }

  get financingCase(): FinancingCase {
    return caseWithQuote(this.caseRow, this.quoteRow);
  }

  get quote(): Quote {
    return toQuote(this.quoteRow);
  }

  now(): Date {
    return new Date(this.settings.now().getTime() + Number(this.caseRow.clock_offset_ms));
  }

  async moveQuotes(moves: QuoteMove[]): Promise<void> {
    for (const move of moves) {
      const from = this.quoteRow.status as QuoteStatus;
      const to = nextQuoteStatus(from, move);
      const at = nextOccurredAt(this.now(), this.caseRow.last_event_at);
      // What entering a state ends of the customer's links: only those issued in this creation exist.
      const { endsCustomerLinks } = quoteStatusEntry(to);
      if (endsCustomerLinks) this.endLinks(endsCustomerLinks);
      this.events.push({ occurredAt: at, resourceType: 'quote', fromStatus: from, toStatus: to, transition: move, caseStatus: to });
      this.changeQuote(quoteStatusChanges(to, at));
      this.caseRow = { ...this.caseRow, last_event_at: at };
    }
  }

  async queueLenderSubmission(): Promise<void> {
    // A new case has no earlier submission to supersede.
    this.submissions.push(lenderSubmissionRow(this.settings, this.caseRow, this.quoteRow));
    this.changeQuote(LENDER_SUBMISSION_QUEUED);
  }

  async issueCustomerLink(link: NewCustomerLink): Promise<IssuedCustomerLink> {
    if (link.replace) this.endLinks('replaced');
    const token = newCustomerToken();
    this.links.push(customerLinkRow({ id: this.caseRow.id, quoteId: this.quoteRow.id }, token, link, this.now()));
    return { token, expiresAt: link.expiresAt.toISOString() };
  }

  async markReviewMailed(): Promise<void> {
    this.changeQuote({ review_mailed_at: this.now() });
  }

  async requestMail(mail: MailRequest): Promise<void> {
    this.mails.push(mailMessage(this.settings, this.caseRow.id, mail, this.now()));
  }

  /**
   * One statement: the events' outbox rows (then the mails) and history lines, the links, the
   * lender submission and the case's last event time as data-modifying WITHs of the quote's update.
   */
  async write(trx: Knex.Transaction): Promise<void> {
    const { outbox, history } = statusEventWrites(
      trx,
      this.settings,
      this.caseRow,
      this.quoteRow,
      this.events,
      { actor: this.audit.actor, reason: this.audit.reason ?? null },
      this.mails,
    );
    const updatedAt = this.now();
    let statement = trx
      .queryBuilder()
      .with('event_outbox', outbox)
      .with('event_history', history)
      .with('event_case', trx('financing_cases').where({ id: this.caseRow.id }).update({ last_event_at: this.caseRow.last_event_at, updated_at: updatedAt }));
    if (this.links.length > 0) statement = statement.with('new_links', trx('customer_links').insert(this.links));
    if (this.submissions.length > 0) statement = statement.with('new_submission', trx('lender_submissions').insert(this.submissions));
    this.caseRow = { ...this.caseRow, updated_at: updatedAt };
    // A creation that changed nothing of the quote (a quote request's) leaves its updatedAt at its creation.
    if (Object.keys(this.quoteChanges).length === 0) {
      await statement.select(trx.raw('1'));
      return;
    }
    const [row] = (await statement
      .from('quotes')
      .where({ id: this.quoteRow.id })
      .update({ ...this.quoteChanges, updated_at: updatedAt })
      .returning('*')) as QuoteRow[];
    this.quoteRow = row as QuoteRow;
    if (this.submissions.length > 0) wakeOnCommit(trx, this.settings.onLenderSubmissionQueued);
  }

  private changeQuote(changes: Record<string, unknown>): void {
    this.quoteChanges = { ...this.quoteChanges, ...changes };
    this.quoteRow = { ...this.quoteRow, ...changes } as QuoteRow;
  }

  private endLinks(reason: string): void {
    const at = this.now();
    for (const link of this.links) if (link.invalidated_at === undefined) Object.assign(link, { invalidated_at: at, invalidated_reason: reason });
  }
}
