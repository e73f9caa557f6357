import type { Knex } from '@rental/db';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('sectors', (table) => {
    table.string('value', 60).primary();
    table.string('label', 200).notNullable();
    table.integer('duration_min').notNullable();
    table.integer('duration_max').notNullable();
  });
  await db.schema.createTable('categories', (table) => {
    table.integer('id').primary();
    table.string('slug', 120).notNullable().unique();
    table.string('name', 200).notNullable();
    table.string('sector', 60).notNullable().references('value').inTable('sectors');
    table.integer('duration_min').notNullable();
    table.integer('duration_max').notNullable();
    table.boolean('has_print_plan_capability').notNullable().defaultTo(false);
  });
  await db.schema.createTable('lenders', (table) => {
    table.string('id', 100).primary();
    table.string('name', 200).notNullable();
    table.string('contact_email', 320);
  });
  await db.schema.createTable('distribution_hubs', (table) => {
    table.string('id', 100).primary();
    table.string('name', 200).notNullable();
    table.boolean('connected').notNullable();
    table.string('contact_email', 320);
  });
  await db.schema.createTable('partners', (table) => {
    table.string('id', 100).primary();
    table.string('name', 300).notNullable();
    table.string('contact_email', 320);
    // null: every sector is allowed
    table.specificType('allowed_sectors', 'text[]');
    table.string('financing_partner_id', 100).references('id').inTable('lenders');
    table.string('distribution_hub_id', 100).references('id').inTable('distribution_hubs');
    table.integer('monthly_surcharge_cents').notNullable().defaultTo(0);
    table.specificType('payment_intervals', 'text[]').notNullable();
  });
  await db.schema.createTable('rental_factors', (table) => {
    table.string('partner_id', 100).notNullable().references('id').inTable('partners');
    table.string('financing_type', 60).notNullable();
    table.integer('commission').notNullable();
    table.integer('duration').notNullable();
    // percent of the financed amount per month, in thousandths (3.180 % -> 3180)
    table.integer('factor_milli').notNullable();
    table.primary(['partner_id', 'financing_type', 'commission', 'duration']);
  });
  await db.schema.createTable('residual_values', (table) => {
    table.string('partner_id', 100).notNullable().references('id').inTable('partners');
    table.string('financing_type', 60).notNullable();
    // percent in thousandths (15.0 % -> 15000)
    table.integer('percent_milli').notNullable();
    table.primary(['partner_id', 'financing_type']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['residual_values', 'rental_factors', 'partners', 'distribution_hubs', 'lenders', 'categories', 'sectors']) {
    await db.schema.dropTable(table);
  }
}
