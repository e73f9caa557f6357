import type { Knex } from '@rental/db';

/**
 * The W3C traceparent of the work that caused an event (its deliveries and mails log under it and
 * a webhook carries it), and the request id and traceparent of a requested mail.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('event_inbox', (table) => {
    table.string('traceparent', 55);
  });
  await db.schema.alterTable('mail_requests', (table) => {
    table.string('request_id', 128);
    table.string('traceparent', 55);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('mail_requests', (table) => {
    table.dropColumn('request_id');
    table.dropColumn('traceparent');
  });
  await db.schema.alterTable('event_inbox', (table) => table.dropColumn('traceparent'));
}
