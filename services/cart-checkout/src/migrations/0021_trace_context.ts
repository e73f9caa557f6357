import { addOutboxTraceparent } from '@rental/bus';
import { type Knex, dropTraceColumns } from '@rental/db';

/** The W3C traceparent of the work that wrote an event, so its consumers log under the same trace. */
export async function up(db: Knex): Promise<void> {
  await addOutboxTraceparent(db);
}

export async function down(db: Knex): Promise<void> {
  await dropTraceColumns(db, 'outbox', ['traceparent']);
}
