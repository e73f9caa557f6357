import { addOutboxRequestId, createOutboxTable } from '@rental/bus';
import type { Knex } from '@rental/db';

/** The name it was applied under before it was named for what it holds; a database migrated then upgrades without running it again. */
export const formerName = '0003_spec19_quote_request_status';

/**
 * Quote requests get their own status events (new → quote_created → canceled), written through an
 * outbox like case-workflow's. Rows filed before have their quote already: they are quote_created.
 */
export async function up(db: Knex): Promise<void> {
  await createOutboxTable(db);
  await addOutboxRequestId(db);
  await db.schema.alterTable('quote_requests', (table) => {
    table.index(['financing_case_id']);
  });
  await db('quote_requests').where({ status: 'new' }).whereNotNull('quote_id').update({ status: 'quote_created' });
}

export async function down(db: Knex): Promise<void> {
  await db('quote_requests').whereIn('status', ['quote_created', 'canceled']).update({ status: 'new' });
  await db.schema.alterTable('quote_requests', (table) => {
    table.dropIndex(['financing_case_id']);
  });
  await db.schema.dropTable('outbox');
}
