import { addOutboxTraceparent } from '@rental/bus';
import type { Knex } from '@rental/db';

/**
 * The W3C traceparent (and request id) of the work that wrote an event or queued a lender
 * submission, so its consumers and the submission worker log under the same trace.
 */
export async function up(db: Knex): Promise<void> {
  await addOutboxTraceparent(db);
  await db.schema.alterTable('lender_submissions', (table) => {
    table.string('request_id', 128);
    table.string('traceparent', 55);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('lender_submissions', (table) => {
    table.dropColumn('request_id');
    table.dropColumn('traceparent');
  });
  await db.schema.alterTable('outbox', (table) => table.dropColumn('traceparent'));
}
