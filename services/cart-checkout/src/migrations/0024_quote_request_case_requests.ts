import type { Knex } from '@rental/db';

/**
 * A quote request is filed (status new) before case-workflow is asked for its case, outside any
 * transaction; the request it sends is kept, so that an interrupted filing (the answer lost, the
 * process gone) is completed by sending exactly the same request again, which case-workflow
 * answers with the same case. The partial index serves the completion job's read.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('quote_requests', (table) => {
    table.jsonb('case_request');
  });
  await db.raw("CREATE INDEX quote_requests_new ON quote_requests (created_at) WHERE status = 'new'");
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS quote_requests_new');
  await db.schema.alterTable('quote_requests', (table) => {
    table.dropColumn('case_request');
  });
}
