import type { Knex } from '@rental/db';

/** The name it was applied under before it was named for what it holds; a database migrated then upgrades without running it again. */
export const formerName = '0004_lender15_production_path';

/**
 * The production path with the lender and the signing provider: lenders with their intake and
 * secret (loaded by the seed command), application ids and credit checks of submissions, the
 * lender's signing statement, the provider's envelopes, and the callbacks already applied.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('lenders', (table) => {
    table.string('id', 100).primary();
    table.string('name', 255).notNullable();
    // null: the lender simulator of the local stack.
    table.text('intake_url');
    table.text('webhook_secret').notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
  });
  await db.schema.alterTable('lender_submissions', (table) => {
    // The application's id towards the lender and the webhook-id of every attempt.
    table.string('application_id', 26).unique();
    table.jsonb('credit_check');
  });
  await db.raw("UPDATE lender_submissions SET application_id = lpad(id::text, 26, '0') WHERE application_id IS NULL");
  await db.schema.alterTable('quotes', (table) => {
    // The lender's statement of who may sign for the customer (start-esignature rule 4); null: none.
    table.jsonb('signing_statement');
  });
  await db.schema.createTable('provider_envelopes', (table) => {
    table.string('envelope_id', 26).primary();
    table.string('financing_case_id', 26).notNullable().references('id').inTable('financing_cases').onDelete('CASCADE');
    table.string('contract_id', 26).notNullable();
    table.text('provider_envelope_id');
    table.timestamp('created_at', { useTz: true }).notNullable();
  });
  await db.schema.createTable('applied_callbacks', (table) => {
    // lender:<lenderId> or signing: webhook-ids are unique per sender only.
    table.string('sender', 120).notNullable();
    table.string('webhook_id', 255).notNullable();
    table.timestamp('applied_at', { useTz: true }).notNullable();
    table.primary(['sender', 'webhook_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('applied_callbacks');
  await db.schema.dropTable('provider_envelopes');
  await db.schema.alterTable('quotes', (table) => table.dropColumn('signing_statement'));
  await db.schema.alterTable('lender_submissions', (table) => {
    table.dropColumn('credit_check');
    table.dropColumn('application_id');
  });
  await db.schema.dropTable('lenders');
}
