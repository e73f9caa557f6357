import type { Knex } from '@rental/db';

/** The approval team says why it asks for a callback. */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('callback_requests', (table) => {
    table.text('note');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('callback_requests', (table) => {
    table.dropColumn('note');
  });
}
