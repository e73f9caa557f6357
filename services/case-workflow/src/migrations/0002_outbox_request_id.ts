import { addOutboxRequestId } from '@rental/bus';
import { type Knex, dropTraceColumns } from '@rental/db';

export async function up(db: Knex): Promise<void> {
  await addOutboxRequestId(db);
}

export async function down(db: Knex): Promise<void> {
  await dropTraceColumns(db, 'outbox', ['request_id']);
}
