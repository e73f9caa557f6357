import type { Knex } from '@rental/db';
import type { ClockQueries } from '../domain/ports';

/**
 * The scheduler's reads of due work, each served by a partial index over the quotes in review
 * (0006_customer17_customer_links). Its lease (one replica ticks at a time) is `postgresLease`
 * over the table `scheduler_leases` of the same migration.
 */
export class ClockRepository implements ClockQueries {
  constructor(private readonly db: Knex) {}

  async dueReminders(mailedBefore: Date, reminderMax: number, limit: number): Promise<string[]> {
    const rows: { financing_case_id: string }[] = await this.db('quotes')
      .where({ status: 'in_review' })
      .where('review_mailed_at', '<=', mailedBefore)
      .where('reminder_count', '<', reminderMax)
      .orderBy('review_mailed_at')
      .limit(limit)
      .select('financing_case_id');
    return rows.map((row) => row.financing_case_id);
  }

  async dueExpiries(inReviewBefore: Date, limit: number): Promise<string[]> {
    const rows: { financing_case_id: string }[] = await this.db('quotes')
      .where({ status: 'in_review' })
      .where('in_review_since', '<=', inReviewBefore)
      .orderBy('in_review_since')
      .limit(limit)
      .select('financing_case_id');
    return rows.map((row) => row.financing_case_id);
  }
}
