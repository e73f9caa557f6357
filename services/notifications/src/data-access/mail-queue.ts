import type { Knex } from '@rental/db';
import type { MailNext } from '../domain/model';

/**
 * The lease queue both mail tables share (mail_log for event mails, mail_requests for mails other
 * services ask for): due pending rows are leased for a while, so a crashed worker's rows come back.
 */
export class MailQueueTable {
  constructor(
    private readonly db: Knex,
    private readonly table: 'mail_log' | 'mail_requests',
  ) {}

  /**
   * Leases up to `limit` due rows and answers the `returning` columns of each; `join` adds
   * tables (with their condition) the answer reads from, aliasing the queue table as m.
   */
  async claimDue<Row>(limit: number, leaseMs: number, returning: string, join?: { from: string; where: string }): Promise<Row[]> {
    const result = await this.db.raw(
      `
UPDATE ${this.table} m
SET lease_expires_at = now() + make_interval(secs => :leaseSeconds)
FROM (
  SELECT id FROM ${this.table}
  WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_expires_at IS NULL OR lease_expires_at < now())
  ORDER BY next_attempt_at, id
  LIMIT :limit
  FOR UPDATE SKIP LOCKED
) due${join ? `, ${join.from}` : ''}
WHERE m.id = due.id${join ? ` AND ${join.where}` : ''}
RETURNING ${returning}`,
      { limit, leaseSeconds: leaseMs / 1000 },
    );
    return result.rows as Row[];
  }

  /** Records an attempt's outcome and gives up the lease; `extra` are the table's own columns. */
  async complete(id: string, attempt: number, next: MailNext, extra: Record<string, unknown> = {}): Promise<void> {
    await this.db(this.table)
      .where({ id })
      .update({
        status: next.status,
        attempts: attempt,
        ...extra,
        last_error: 'error' in next ? next.error : 'reason' in next ? next.reason : null,
        next_attempt_at: next.status === 'pending' ? next.nextAttemptAt : null,
        lease_expires_at: null,
        completed_at: next.status === 'pending' ? null : this.db.fn.now(),
      });
  }

  async nextDueAt(): Promise<Date | undefined> {
    const row = await this.db(this.table).where({ status: 'pending' }).where('next_attempt_at', '>', this.db.fn.now()).min({ due: 'next_attempt_at' }).first();
    return row?.due ?? undefined;
  }
}
