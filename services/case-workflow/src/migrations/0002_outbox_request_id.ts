import { addOutboxRequestId } from '@rental/bus';
import type { Knex } from '@rental/db';

export async function up(db: Knex): Promise<void> {
  await addOutboxRequestId(db);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('outbox', (table) => {
    table.dropColumn('request_id');
  });
}
