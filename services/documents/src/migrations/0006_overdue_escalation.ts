import type { Knex } from '@rental/db';

/** The name it was applied under before it was named for what it holds; a database migrated then upgrades without running it again. */
export const formerName = '0006_customer17_overdue_escalation';

/**
 * The clock's second mark on an overdue item: the grace after its due date ended and the case
 * was canceled (or found closed), so the item is not listed for that again. The partial index
 * serves both stages' reads of required, pending items the partner or the customer owes.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('requested_items', (table) => {
    table.timestamp('overdue_escalated_at', { useTz: true });
  });
  await db.raw(
    "CREATE INDEX requested_items_overdue ON requested_items (due_at) WHERE status = 'pending' AND NOT optional AND target_audience IN ('partner', 'customer')",
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS requested_items_overdue');
  await db.schema.alterTable('requested_items', (table) => {
    table.dropColumn('overdue_escalated_at');
  });
}
