import type { Knex } from '@rental/db';

/**
 * The key a caller created items with (optional): a repeat of the call with the same key for the
 * case answers the items the first one created instead of creating them again.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('requested_items', (table) => {
    table.string('creation_key', 300);
    table.index(['financing_case_id', 'creation_key']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('requested_items', (table) => {
    table.dropIndex(['financing_case_id', 'creation_key']);
    table.dropColumn('creation_key');
  });
}
