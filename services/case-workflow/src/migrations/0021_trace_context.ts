import { addOutboxTraceparent } from '@rental/bus';
import { type Knex, addTraceColumns, dropTraceColumns } from '@rental/db';

/**
 * The W3C traceparent (and request id) of the work that wrote an event or queued a lender
 * submission, so its consumers and the submission worker log under the same trace.
 */
export async function up(db: Knex): Promise<void> {
  await addOutboxTraceparent(db);
  await addTraceColumns(db, 'lender_submissions');
}

export async function down(db: Knex): Promise<void> {
  await dropTraceColumns(db, 'lender_submissions');
  await dropTraceColumns(db, 'outbox', ['traceparent']);
}
