import type { Knex } from '@rental/db';
import type { ClockQueries } from '../domain/case/ports';

/**
 * The scheduler's reads of due work, each served by a partial index over the quotes in review
 * (0006_customer_links_and_scheduler). Cases the sandbox clock moved forward are due on their own
 * clock (the wall clock plus their offset); the few of them are found by their partial index
 * (0027_case_clocks). Its lease (one replica ticks at a time) is `postgresLease` over the table
 * `scheduler_leases` of the same migration.
 */
export class ClockRepository implements ClockQueries {
  constructor(private readonly db: Knex) {}

  async dueReminders(mailedBefore: Date, reminderMax: number, limit: number): Promise<{ financingCaseId: string; partnerId: string }[]> {
    const rows: { financing_case_id: string; partner_id: string }[] = await this.db('quotes')
      .where({ status: 'in_review' })
      .where('review_mailed_at', '<=', mailedBefore)
      .where('reminder_count', '<', reminderMax)
      .orderBy('review_mailed_at')
      .limit(limit)
      .select('financing_case_id', 'partner_id');
    const moved = await this.movedCasesDue('review_mailed_at', mailedBefore, limit, (query) => query.where('q.reminder_count', '<', reminderMax));
    const due = new Map(rows.map((row) => [row.financing_case_id, row.partner_id]));
    for (const row of moved) due.set(row.id, row.partner_id);
    return [...due].map(([financingCaseId, partnerId]) => ({ financingCaseId, partnerId }));
  }

  async dueExpiries(inReviewBefore: Date, limit: number): Promise<string[]> {
    const rows: { financing_case_id: string }[] = await this.db('quotes')
      .where({ status: 'in_review' })
      .where('in_review_since', '<=', inReviewBefore)
      .orderBy('in_review_since')
      .limit(limit)
      .select('financing_case_id');
    const moved = await this.movedCasesDue('in_review_since', inReviewBefore, limit);
    return [...new Set([...rows.map((row) => row.financing_case_id), ...moved.map((row) => row.id)])];
  }

  /** Moved cases in review whose `column` is before `before` on their own clock. */
  private async movedCasesDue(
    column: 'review_mailed_at' | 'in_review_since',
    before: Date,
    limit: number,
    narrow: (query: Knex.QueryBuilder) => Knex.QueryBuilder = (query) => query,
  ): Promise<{ id: string; partner_id: string }[]> {
    const query = this.db('financing_cases as fc')
      .join('quotes as q', 'q.financing_case_id', 'fc.id')
      .whereRaw('fc.clock_offset_ms <> 0')
      .where('q.status', 'in_review')
      .whereRaw(`q.${column} <= ?::timestamptz + fc.clock_offset_ms * interval '1 millisecond'`, [before])
      .limit(limit);
    return narrow(query).select('fc.id', 'fc.partner_id');
  }
}
