import { type Knex, addTraceColumns, dropTraceColumns } from '@rental/db';

/** The name it was applied under before it was named for what it holds; a database migrated then upgrades without running it again. */
export const formerName = '0007_ops21_endpoint_tools';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_endpoints', (table) => {
    // The secret a rotation replaced: it still signs (beside the new one) until it expires.
    table.text('previous_secret');
    table.timestamp('previous_secret_expires_at', { useTz: true });
  });
  await db.schema.alterTable('deliveries', (table) => {
    // Attempts made before the latest redelivery request; the retry schedule counts from there.
    table.integer('attempts_before_redelivery').notNullable().defaultTo(0);
  });
  // The request that caused the event, so the log lines of its deliveries carry its id.
  await addTraceColumns(db, 'event_inbox', ['request_id']);
}

export async function down(db: Knex): Promise<void> {
  await dropTraceColumns(db, 'event_inbox', ['request_id']);
  await db.schema.alterTable('deliveries', (table) => table.dropColumn('attempts_before_redelivery'));
  await db.schema.alterTable('webhook_endpoints', (table) => {
    table.dropColumn('previous_secret');
    table.dropColumn('previous_secret_expires_at');
  });
}
