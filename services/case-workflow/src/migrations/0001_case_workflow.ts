import { createOutboxTable } from '@rental/bus';
import type { Knex } from '@rental/db';

export async function up(db: Knex): Promise<void> {
  // Case and generated quote numbers count across the deployment (FC-2026-000123, Q-2026-000123).
  await db.raw('CREATE SEQUENCE case_number_seq');
  await db.raw('CREATE SEQUENCE quote_number_seq');

  await db.schema.createTable('financing_cases', (table) => {
    table.string('id', 26).primary();
    table.text('partner_id').notNullable();
    table.string('case_number', 40).notNullable().unique();
    table.string('type', 20).notNullable().defaultTo('financing');
    table.boolean('financing_request').notNullable();
    table.text('rejection_reason');
    table.text('cart_id');
    table.text('quote_request_id');
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    // occurredAt of the case's latest event: the next one is strictly later.
    table.timestamp('last_event_at', { useTz: true });
    table.unique(['partner_id', 'cart_id'], { indexName: 'financing_cases_partner_cart_unique' });
    table.unique(['partner_id', 'quote_request_id'], { indexName: 'financing_cases_partner_quote_request_unique' });
    table.index(['partner_id', 'created_at']);
  });

  await db.schema.createTable('quotes', (table) => {
    table.string('id', 26).primary();
    table.string('financing_case_id', 26).notNullable().unique().references('id').inTable('financing_cases');
    table.text('partner_id').notNullable();
    table.text('quote_number').notNullable();
    table.string('status', 40).notNullable();
    table.timestamp('status_updated_at', { useTz: true }).notNullable();
    table.text('calculation_type').notNullable();
    table.integer('duration').notNullable();
    table.jsonb('customer').notNullable();
    table.jsonb('shipping_address').notNullable();
    table.text('distribution_hub');
    table.text('calculation_id');
    table.text('cart_id');
    table.text('quote_request_id');
    table.timestamp('in_review_since', { useTz: true });
    table.integer('reminder_count').notNullable().defaultTo(0);
    table.timestamp('last_reminder_at', { useTz: true });
    table.string('lender_submission_status', 20);
    table.timestamp('last_lender_submission_at', { useTz: true });
    table.text('financing_number');
    table.text('processing_fee');
    table.text('special_agreements');
    table.decimal('rental_factor', 10, 3);
    table.decimal('residual_value', 10, 3);
    table.text('payment_interval');
    table.integer('commission_percentage').notNullable();
    table.bigInteger('total_value_cents');
    table.bigInteger('monthly_costs_cents');
    table.bigInteger('monthly_rate_all_in_cents');
    table.bigInteger('service_cost_cents');
    table.bigInteger('recurring_service_fee_cents');
    table.text('product_sector');
    table.text('financing_partner_id');
    table.text('custom_sla_file_name');
    table.text('contact_phone');
    table.text('contact_email');
    table.jsonb('print_plan_terms');
    table.timestamp('deleted_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['partner_id', 'quote_number'], { indexName: 'quotes_partner_quote_number_unique' });
  });

  await db.schema.createTable('quote_items', (table) => {
    table.increments('id');
    table.string('quote_id', 26).notNullable().references('id').inTable('quotes');
    table.integer('position').notNullable();
    table.text('product_number').notNullable();
    table.text('product_name');
    table.text('product_sku');
    table.integer('quantity').notNullable();
    table.bigInteger('price_per_item_cents').notNullable();
    table.bigInteger('total_cents').notNullable();
    table.integer('category_id');
    table.text('category_slug');
    table.jsonb('product_options').notNullable();
    table.index(['quote_id', 'position']);
  });

  await db.schema.createTable('quote_feedbacks', (table) => {
    table.increments('id');
    table.string('quote_id', 26).notNullable().references('id').inTable('quotes');
    table.text('text');
    table.string('action', 40).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.index(['quote_id']);
  });

  await db.schema.createTable('authorized_persons', (table) => {
    table.increments('id');
    table.string('quote_id', 26).notNullable().references('id').inTable('quotes');
    table.text('first_name').notNullable();
    table.text('last_name').notNullable();
    table.text('email').notNullable();
    table.boolean('confirmed_by_external').notNullable().defaultTo(false);
    table.boolean('solo_signee_permitted').notNullable().defaultTo(false);
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.index(['quote_id']);
  });

  await db.schema.createTable('financing_responses', (table) => {
    table.increments('id');
    table.string('quote_id', 26).notNullable().references('id').inTable('quotes');
    table.string('decision', 20).notNullable();
    table.boolean('active').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.index(['quote_id']);
  });

  await db.schema.createTable('contracts', (table) => {
    table.string('id', 26).primary();
    table.string('financing_case_id', 26).notNullable().unique().references('id').inTable('financing_cases');
    table.string('quote_id', 26).notNullable().references('id').inTable('quotes');
    table.text('partner_id').notNullable();
    table.text('contract_number');
    table.string('status', 40).notNullable();
    table.timestamp('status_updated_at', { useTz: true }).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['partner_id', 'contract_number'], { indexName: 'contracts_partner_contract_number_unique' });
  });

  await db.schema.createTable('signature_envelopes', (table) => {
    table.string('id', 26).primary();
    table.string('contract_id', 26).notNullable().unique().references('id').inTable('contracts').onDelete('CASCADE');
    table.string('status', 20).notNullable();
    table.jsonb('recipients').notNullable();
    table.text('decline_reason');
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
  });

  await db.schema.createTable('lender_submissions', (table) => {
    table.increments('id');
    table.string('quote_id', 26).notNullable().references('id').inTable('quotes');
    table.string('financing_case_id', 26).notNullable();
    table.text('partner_id').notNullable();
    table.text('lender_id');
    table.string('status', 20).notNullable();
    table.integer('attempts').notNullable().defaultTo(0);
    table.timestamp('next_attempt_at', { useTz: true }).notNullable();
    // A worker that took the submission owns it until then; after, another may retry it.
    table.timestamp('lease_until', { useTz: true });
    table.text('last_error');
    table.text('reference');
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('submitted_at', { useTz: true });
    table.index(['status', 'next_attempt_at']);
  });

  await createOutboxTable(db);
}

export async function down(db: Knex): Promise<void> {
  for (const table of [
    'outbox',
    'lender_submissions',
    'signature_envelopes',
    'contracts',
    'financing_responses',
    'authorized_persons',
    'quote_feedbacks',
    'quote_items',
    'quotes',
    'financing_cases',
  ]) {
    await db.schema.dropTableIfExists(table);
  }
  await db.raw('DROP SEQUENCE IF EXISTS quote_number_seq');
  await db.raw('DROP SEQUENCE IF EXISTS case_number_seq');
}
