import type { Knex } from '@rental/db';
import type { ClockQueries } from '../domain/ports';

/**
 * The scheduler's reads of due work, each served by a partial index over the quotes in review
 * (0006_customer17_customer_links), and its lease: one replica ticks at a time.
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

  /**
   * Takes (or renews) the named lease until `until` when it is free, expired or already ours;
   * false when another holder has it.
   */
  async acquireLease(name: string, holder: string, until: Date): Promise<boolean> {
    const result = await this.db.raw(
      `INSERT INTO scheduler_leases (name, holder, lease_until) VALUES (:name, :holder, :until)
       ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, lease_until = EXCLUDED.lease_until
       WHERE scheduler_leases.lease_until < now() OR scheduler_leases.holder = EXCLUDED.holder
       RETURNING holder`,
      { name, holder, until },
    );
    return result.rows.length === 1;
  }

  /** Gives the lease up after a tick, so the next tick may run in any replica. */
  async releaseLease(name: string, holder: string): Promise<void> {
    await this.db('scheduler_leases').where({ name, holder }).update({ lease_until: new Date(0) });
  }
}
