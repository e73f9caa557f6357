import type { Knex } from '@rental/db';

/**
 * When a requested item is due (the approval team sets it, or DOCUMENT_DUE_AFTER after creation),
 * and when the clock told the partner it is overdue, so that mail goes out once.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('requested_items', (table) => {
    table.timestamp('due_at', { useTz: true });
    table.timestamp('overdue_notified_at', { useTz: true });
    table.index(['status', 'due_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('requested_items', (table) => {
    table.dropIndex(['status', 'due_at']);
    table.dropColumn('overdue_notified_at');
    table.dropColumn('due_at');
  });
}
