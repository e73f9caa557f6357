import type { Knex } from '@rental/db';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('calculations', (table) => {
    table.string('id', 26).primary();
    table.string('partner_id', 100).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.string('product_sector', 60).notNullable();
    table.jsonb('category');
    // the CalculationResponse as answered: offers, request, currency, selectedOffer
    table.jsonb('response').notNullable();
    table.index(['partner_id', 'created_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('calculations');
}
