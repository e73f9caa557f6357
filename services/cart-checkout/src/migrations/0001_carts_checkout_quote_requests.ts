import type { Knex } from '@rental/db';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('carts', (table) => {
    table.string('id', 26).primary();
    table.string('partner_id', 100).notNullable();
    // active → checking_out (claimed by one checkout) → checked_out; a failed checkout goes back to active
    table.string('status', 20).notNullable();
    table.jsonb('items').notNullable();
    // the cart financing response as priced when the items were last set
    table.jsonb('pricing').notNullable();
    table.timestamp('claimed_at', { useTz: true });
    table.string('financing_case_id', 26);
    table.string('quote_id', 26);
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.index(['partner_id', 'created_at']);
  });
  await db.schema.createTable('idempotency_keys', (table) => {
    table.string('partner_id', 100).notNullable();
    table.string('key', 255).notNullable();
    table.string('request_hash', 64).notNullable();
    // running while the first request is in flight; completed holds its outcome
    table.string('state', 20).notNullable();
    table.integer('response_status');
    table.jsonb('response_headers');
    table.jsonb('response_body');
    table.timestamp('started_at', { useTz: true }).notNullable();
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.primary(['partner_id', 'key']);
    table.index(['expires_at']);
  });
  await db.schema.createTable('quote_requests', (table) => {
    table.increments('id').primary();
    table.string('partner_id', 100).notNullable();
    table.string('status', 30).notNullable();
    table.string('calculation_id', 26).notNullable();
    table.string('financing_case_id', 26);
    table.string('quote_id', 26);
    table.jsonb('fields').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.index(['partner_id', 'created_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['quote_requests', 'idempotency_keys', 'carts']) await db.schema.dropTable(table);
}
