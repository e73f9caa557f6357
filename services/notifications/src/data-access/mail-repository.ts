import type { Knex } from '@rental/db';
import type { StatusChangedEvent } from '@rental/proto';
import type { MailJob, MailNext, MailStore, RecipientRole } from '../domain/mail';

interface ClaimedMailRow {
  id: string;
  partner_id: string;
  recipient_role: RecipientRole;
  attempts: number;
  event: string;
  request_id: string | null;
  traceparent: string | null;
}

const CLAIM_DUE = `
UPDATE mail_log m
SET lease_expires_at = now() + make_interval(secs => :leaseSeconds)
FROM (
  SELECT id FROM mail_log
  WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_expires_at IS NULL OR lease_expires_at < now())
  ORDER BY next_attempt_at, id
  LIMIT :limit
  FOR UPDATE SKIP LOCKED
) due, event_inbox e
WHERE m.id = due.id AND e.id = m.event_id
RETURNING m.id, m.partner_id, m.recipient_role, m.attempts, e.event, e.request_id, e.traceparent`;

export class MailRepository implements MailStore {
  constructor(private readonly db: Knex) {}

  async claimDue(limit: number, leaseMs: number): Promise<MailJob[]> {
    const result = await this.db.raw(CLAIM_DUE, { limit, leaseSeconds: leaseMs / 1000 });
    return (result.rows as ClaimedMailRow[]).map((row) => ({
      id: String(row.id),
      partnerId: row.partner_id,
      role: row.recipient_role,
      attempt: row.attempts + 1,
      event: JSON.parse(row.event) as StatusChangedEvent,
      requestId: row.request_id,
      traceparent: row.traceparent,
    }));
  }

  async complete(job: MailJob, next: MailNext): Promise<void> {
    const final = next.status !== 'pending';
    await this.db('mail_log')
      .where({ id: job.id })
      .update({
        status: next.status,
        attempts: job.attempt,
        to_address: 'message' in next ? next.message.to : null,
        subject: 'message' in next ? next.message.subject : null,
        last_error: 'error' in next ? next.error : 'reason' in next ? next.reason : null,
        next_attempt_at: next.status === 'pending' ? next.nextAttemptAt : null,
        lease_expires_at: null,
        completed_at: final ? this.db.fn.now() : null,
      });
  }

  async nextDueAt(): Promise<Date | undefined> {
    const row = await this.db('mail_log').where({ status: 'pending' }).where('next_attempt_at', '>', this.db.fn.now()).min({ due: 'next_attempt_at' }).first();
    return row?.due ?? undefined;
  }
}
