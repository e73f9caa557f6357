import type { Knex } from '@rental/db';
import { currentOrigin } from '@rental/logger';
import type { MailNext } from '../domain/mail';
import type { RequestedMailJob, RequestedMailStore } from '../domain/requested-mail';

interface ClaimedRow {
  id: string;
  kind: string;
  partner_id: string | null;
  recipient_email: string | null;
  subject: string;
  body: string;
  attempts: number;
  request_id: string | null;
  traceparent: string | null;
}

const CLAIM_DUE = `
UPDATE mail_requests m
SET lease_expires_at = now() + make_interval(secs => :leaseSeconds)
FROM (
  SELECT id FROM mail_requests
  WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_expires_at IS NULL OR lease_expires_at < now())
  ORDER BY next_attempt_at, id
  LIMIT :limit
  FOR UPDATE SKIP LOCKED
) due
WHERE m.id = due.id
RETURNING m.id, m.kind, m.partner_id, m.recipient_email, m.subject, m.body, m.attempts, m.request_id, m.traceparent`;

export class RequestedMailRepository implements RequestedMailStore {
  constructor(private readonly db: Knex) {}

  async add(request: Parameters<RequestedMailStore['add']>[0]): Promise<boolean> {
    // Stored while the mail.requested message is handled: the mail goes out in its trace.
    const origin = currentOrigin();
    const inserted = await this.db('mail_requests').insert({
      id: request.id,
      kind: request.kind,
      partner_id: 'partnerId' in request.recipient ? request.recipient.partnerId : null,
      recipient_email: 'email' in request.recipient ? request.recipient.email : null,
      subject: request.subject,
      body: request.text,
      financing_case_id: request.financingCaseId,
      status: 'pending',
      next_attempt_at: this.db.fn.now(),
      request_id: origin.requestId,
      traceparent: origin.traceparent,
    }).onConflict('id').ignore().returning('id');
    return inserted.length > 0;
  }

  async claimDue(limit: number, leaseMs: number): Promise<RequestedMailJob[]> {
    const result = await this.db.raw(CLAIM_DUE, { limit, leaseSeconds: leaseMs / 1000 });
    return (result.rows as ClaimedRow[]).map((row) => ({
      id: row.id,
      kind: row.kind,
      recipient: row.partner_id ? { partnerId: row.partner_id } : { email: row.recipient_email as string },
      subject: row.subject,
      text: row.body,
      attempt: row.attempts + 1,
      requestId: row.request_id,
      traceparent: row.traceparent,
    }));
  }

  async complete(job: RequestedMailJob, next: MailNext): Promise<void> {
    await this.db('mail_requests').where({ id: job.id }).update({
      status: next.status,
      attempts: job.attempt,
      last_error: 'error' in next ? next.error : 'reason' in next ? next.reason : null,
      next_attempt_at: next.status === 'pending' ? next.nextAttemptAt : null,
      lease_expires_at: null,
      completed_at: next.status === 'pending' ? null : this.db.fn.now(),
    });
  }

  async nextDueAt(): Promise<Date | undefined> {
    const row = await this.db('mail_requests').where({ status: 'pending' }).where('next_attempt_at', '>', this.db.fn.now()).min({ due: 'next_attempt_at' }).first();
    return row?.due ?? undefined;
  }
}
