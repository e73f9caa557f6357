import type { Knex } from '@rental/db';
import type { StatusChangedEvent } from '@rental/proto';
import { MailQueueTable } from './mail-queue';
import type { MailJob, MailNext, RecipientRole } from '../domain/model';
import type { MailStore } from '../domain/ports';

interface ClaimedMailRow {
  id: string;
  partner_id: string;
  recipient_role: RecipientRole;
  attempts: number;
  event: string;
  request_id: string | null;
  traceparent: string | null;
}

export class MailRepository implements MailStore {
  private readonly queue: MailQueueTable;

  constructor(db: Knex) {
    this.queue = new MailQueueTable(db, 'mail_log');
  }

  async claimDue(limit: number, leaseMs: number): Promise<MailJob[]> {
    const rows = await this.queue.claimDue<ClaimedMailRow>(
      limit,
      leaseMs,
      'm.id, m.partner_id, m.recipient_role, m.attempts, e.event, e.request_id, e.traceparent',
      { from: 'event_inbox e', where: 'e.id = m.event_id' },
    );
    return rows.map((row) => ({
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
    await this.queue.complete(job.id, job.attempt, next, {
      to_address: 'message' in next ? next.message.to : null,
      subject: 'message' in next ? next.message.subject : null,
    });
  }

  nextDueAt(): Promise<Date | undefined> {
    return this.queue.nextDueAt();
  }
}
