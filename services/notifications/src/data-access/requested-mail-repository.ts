import type { Knex } from '@rental/db';
import { currentOrigin } from '@rental/logger';
import { MailQueueTable } from './mail-queue';
import type { MailNext, RequestedMailJob } from '../domain/model';
import type { RequestedMailStore } from '../domain/ports';

/** A queued mail as the worker takes it, claimed or stored leased. */
interface JobRow {
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

const JOB_COLUMNS = ['id', 'kind', 'partner_id', 'recipient_email', 'subject', 'body', 'attempts', 'request_id', 'traceparent'];

function jobOf(row: JobRow): RequestedMailJob {
  return {
    id: row.id,
    kind: row.kind,
    recipient: row.partner_id ? { partnerId: row.partner_id } : { email: row.recipient_email as string },
    subject: row.subject,
    text: row.body,
    attempt: row.attempts + 1,
    requestId: row.request_id,
    traceparent: row.traceparent,
  };
}

export class RequestedMailRepository implements RequestedMailStore {
  private readonly queue: MailQueueTable;

  constructor(private readonly db: Knex) {
    this.queue = new MailQueueTable(db, 'mail_requests');
  }

  async add(request: Parameters<RequestedMailStore['add']>[0], leaseMs?: number): Promise<RequestedMailJob | undefined> {
    // Stored while the mail.requested message is handled: the mail goes out in its trace.
    const origin = currentOrigin();
    const [inserted] = await this.db('mail_requests')
      .insert({
        id: request.id,
        kind: request.kind,
        partner_id: 'partnerId' in request.recipient ? request.recipient.partnerId : null,
        recipient_email: 'email' in request.recipient ? request.recipient.email : null,
        subject: request.subject,
        body: request.text,
        financing_case_id: request.financingCaseId,
        status: 'pending',
        next_attempt_at: this.db.fn.now(),
        lease_expires_at: leaseMs === undefined ? null : this.queue.leaseFor(leaseMs),
        request_id: origin.requestId,
        traceparent: origin.traceparent,
      })
      .onConflict('id')
      .ignore()
      .returning(JOB_COLUMNS);
    return inserted ? jobOf(inserted as JobRow) : undefined;
  }

  async claimDue(limit: number, leaseMs: number): Promise<RequestedMailJob[]> {
    const rows = await this.queue.claimDue<JobRow>(limit, leaseMs, JOB_COLUMNS.map((column) => `m.${column}`).join(', '));
    return rows.map(jobOf);
  }

  complete(job: RequestedMailJob, next: MailNext): Promise<void> {
    return this.queue.complete(job.id, job.attempt, next);
  }

  nextDueAt(): Promise<Date | undefined> {
    return this.queue.nextDueAt();
  }
}
