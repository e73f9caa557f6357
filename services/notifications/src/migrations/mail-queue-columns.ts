import type { Knex } from '@rental/db';

/**
 * The lease queue columns both mail tables share (mail_log for event mails, mail_requests for
 * mails other services ask for), which data-access/mail-queue.ts claims, retries and completes
 * alike. status: pending, sent, logged (no SMTP configured), skipped (no address), failed (gave up).
 */
export function mailQueueColumns(db: Knex, table: Knex.CreateTableBuilder): void {
  table.string('status', 20).notNullable();
  table.integer('attempts').notNullable().defaultTo(0);
  table.timestamp('next_attempt_at', { useTz: true });
  table.timestamp('lease_expires_at', { useTz: true });
  table.text('last_error');
  table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  table.timestamp('completed_at', { useTz: true });
}
