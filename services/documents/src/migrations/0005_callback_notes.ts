import type { Knex } from '@rental/db';

/** The name it was applied under before it was named for what it holds; a database migrated then upgrades without running it again. */
export const formerName = '0005_ops16_callback_notes';

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
