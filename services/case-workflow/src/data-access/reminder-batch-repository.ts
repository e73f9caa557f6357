import { outboxInsert, type OutboxMessage } from '@rental/bus';
import type { Knex } from '@rental/db';
import { newCustomerToken } from '../domain/customer/customer-token';
import type { Actor, AuditContext, Quote } from '../domain/shared/model';
import type { MailRequest } from '../domain/shared/ports';
import type { ReminderBatches, ReminderCase } from '../domain/case/ports';
import type { IssuedCustomerLink, NewCustomerLink } from '../domain/customer/ports';
import { EventSettings, customerLinkRow, historyRow, mailMessage } from './case-transaction';
import { QuoteRow, toQuote } from './rows';

/** What the reminders of one batch write, sent as one multi-row statement per table. */
interface BatchWrites {
  links: Record<string, unknown>[];
  quotes: Map<string, Pick<QuoteRow, 'reminder_count'> & { last_reminder_at: Date | null; review_mailed_at: Date | null; updated_at: Date }>;
  history: Record<string, unknown>[];
  outbox: OutboxMessage[];
}

type LockedRow = QuoteRow & { clock_offset_ms: string | number };

/** One locked case of a batch: its changes are kept in memory and written with the batch's. */
class BatchedReminderCase implements ReminderCase {
  private changes: Partial<QuoteRow> = {};
  private reason: string | null;

  constructor(
    private readonly row: LockedRow,
    private readonly link: { email: string | null; expires_at: Date } | undefined,
    private readonly settings: EventSettings,
    private readonly writes: BatchWrites,
    private readonly audit: AuditContext,
  ) {
    this.reason = audit.reason ?? null;
  }

  get quote(): Quote {
    return toQuote({ ...this.row, ...this.changes });
  }

  now(): Date {
    return new Date(this.settings.now().getTime() + Number(this.row.clock_offset_ms));
  }

  setAuditReason(reason: string | null): void {
    this.reason = reason;
  }

  async currentCustomerLink(): Promise<{ email: string | null; expiresAt: string } | null> {
    return this.link && this.link.expires_at > this.now() ? { email: this.link.email, expiresAt: this.link.expires_at.toISOString() } : null;
  }

  async markReviewMailed(): Promise<void> {
    this.change({ review_mailed_at: this.now() });
  }

  async recordReminder(): Promise<void> {
    const now = this.now();
    this.change({ reminder_count: this.quote.reminderCount + 1, last_reminder_at: now, review_mailed_at: now });
  }

  async issueCustomerLink(link: NewCustomerLink): Promise<IssuedCustomerLink> {
    // A reminder only adds a copy of the current link; replacing links is a case transaction's work.
    if (link.replace) throw new Error('a reminder batch does not replace customer links');
    const token = newCustomerToken();
    this.writes.links.push(customerLinkRow({ id: this.row.financing_case_id, quoteId: this.row.id }, token, link, this.now()));
    return { token, expiresAt: link.expiresAt.toISOString() };
  }

  async recordHistory(action: string, entry: { reason?: string | null; details?: Record<string, unknown> | null; actor?: Actor } = {}): Promise<void> {
    this.writes.history.push(
      historyRow(this.row.financing_case_id, entry.actor ?? this.audit.actor, {
        at: this.now(),
        action,
        reason: entry.reason ?? this.reason,
        details: entry.details ?? null,
      }),
    );
  }

  async requestMail(mail: MailRequest): Promise<void> {
    this.writes.outbox.push(mailMessage(this.settings, this.row.financing_case_id, mail, this.now()));
  }

  private change(changes: Partial<QuoteRow>): void {
    this.changes = { ...this.changes, ...changes };
    const quote = { ...this.row, ...this.changes };
    this.writes.quotes.set(this.row.id, {
      reminder_count: quote.reminder_count,
      last_reminder_at: quote.last_reminder_at,
      review_mailed_at: quote.review_mailed_at,
      updated_at: this.now(),
    });
  }
}

/**
 * The scheduler's reminders in batches: one transaction locks the batch's cases (SKIP LOCKED:
 * a case a customer, a replica or the sandbox clock holds waits for a later tick), runs the
 * reminder rule on each and writes all links, quote changes, history entries and mails in four
 * multi-row statements, instead of a transaction of about ten round trips per reminder.
 */
export class ReminderBatchRepository implements ReminderBatches {
  constructor(
    private readonly db: Knex,
    private readonly settings: EventSettings,
  ) {}

  async remindAll(financingCaseIds: string[], work: (reminder: ReminderCase) => Promise<boolean>, audit: AuditContext): Promise<number> {
    if (financingCaseIds.length === 0) return 0;
    return this.db.transaction(async (trx) => {
      // Case and quote locked together, in the order of a case transaction (case, then quote).
      const locked: LockedRow[] = await trx('financing_cases as fc')
        .join('quotes as q', 'q.financing_case_id', 'fc.id')
        .whereIn('fc.id', financingCaseIds)
        .orderBy('fc.id')
        .forUpdate('fc', 'q')
        .skipLocked()
        .select('q.*', 'fc.clock_offset_ms');
      if (locked.length === 0) return 0;
      const links: { financing_case_id: string; email: string | null; expires_at: Date }[] = await trx('customer_links')
        .distinctOn('financing_case_id')
        .whereIn(
          'financing_case_id',
          locked.map((row) => row.financing_case_id),
        )
        .where({ view_only: false })
        .whereNull('invalidated_at')
        .orderBy([{ column: 'financing_case_id' }, { column: 'id', order: 'desc' }])
        .select('financing_case_id', 'email', 'expires_at');
      const linkOf = new Map(links.map((link) => [link.financing_case_id, link]));
      const writes: BatchWrites = { links: [], quotes: new Map(), history: [], outbox: [] };
      let applied = 0;
      for (const row of locked) {
        if (await work(new BatchedReminderCase(row, linkOf.get(row.financing_case_id), this.settings, writes, audit))) applied += 1;
      }
      await this.write(trx, writes);
      return applied;
    });
  }

  private async write(trx: Knex.Transaction, writes: BatchWrites): Promise<void> {
    if (writes.links.length > 0) await trx('customer_links').insert(writes.links);
    if (writes.quotes.size > 0) {
      const values = [...writes.quotes].map(([id, quote]) => [id, quote.reminder_count, quote.last_reminder_at, quote.review_mailed_at, quote.updated_at]);
      await trx.raw(
        `
        UPDATE quotes AS q SET reminder_count = v.reminder_count, last_reminder_at = v.last_reminder_at, review_mailed_at = v.review_mailed_at, updated_at = v.updated_at
        FROM (VALUES ${values.map(() => '(?, ?::int, ?::timestamptz, ?::timestamptz, ?::timestamptz)').join(', ')}) AS v(id, reminder_count, last_reminder_at, review_mailed_at, updated_at)
        WHERE q.id = v.id`,
        values.flat(),
      );
    }
    if (writes.history.length > 0) await trx('case_history').insert(writes.history);
    if (writes.outbox.length > 0) await outboxInsert(trx, writes.outbox);
  }
}
