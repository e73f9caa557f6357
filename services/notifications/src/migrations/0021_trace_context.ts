import { type Knex, addTraceColumns, dropTraceColumns } from '@rental/db';

/**
 * The W3C traceparent of the work that caused an event (its deliveries and mails log under it and
 * a webhook carries it), and the request id and traceparent of a requested mail.
 */
export async function up(db: Knex): Promise<void> {
  await addTraceColumns(db, 'event_inbox', ['traceparent']);
  await addTraceColumns(db, 'mail_requests');
}

export async function down(db: Knex): Promise<void> {
  await dropTraceColumns(db, 'mail_requests');
  await dropTraceColumns(db, 'event_inbox', ['traceparent']);
}
