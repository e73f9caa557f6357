import type { Knex } from '@rental/db';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('callback_requests', (table) => {
    table.increments('id');
    table.string('financing_case_id', 26).notNullable();
    table.string('partner_id', 100).notNullable();
    table.string('status', 10).notNullable().defaultTo('open').checkIn(['open', 'closed'], 'callback_requests_status');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('closed_at', { useTz: true });
    table.index(['financing_case_id', 'status']);
  });

  await db.schema.createTable('requested_items', (table) => {
    table.increments('id');
    table.string('item_type', 20).notNullable().checkIn(['information', 'document', 'fill_and_return'], 'requested_items_item_type');
    table.string('financing_case_id', 26).notNullable();
    table.string('partner_id', 100).notNullable();
    table.string('label', 255).notNullable();
    table.string('category', 60).notNullable();
    table
      .string('status', 20)
      .notNullable()
      .defaultTo('pending')
      .checkIn(['pending', 'not_available', 'provided', 'sent', 'accepted', 'rejected'], 'requested_items_status');
    table.string('recipient_type', 10).notNullable().defaultTo('service').checkIn(['service', 'billing'], 'requested_items_recipient_type');
    table.string('target_audience', 10).notNullable().defaultTo('partner').checkIn(['customer', 'partner', 'operator'], 'requested_items_target_audience');
    table.boolean('optional').notNullable().defaultTo(false);
    table.boolean('internal_only').notNullable().defaultTo(false);
    table.string('custom_name', 255);
    // requested information: the question and the partner's answer
    table.text('question');
    table.text('response');
    // fill-and-return: the template file, stored in object storage at creation
    table.string('template_object_key', 200).unique();
    table.string('template_file_name', 255);
    table.integer('template_file_size');
    table.string('template_mime_type', 100);
    table.string('template_original_name', 255);
    table.integer('callback_request_id').references('id').inTable('callback_requests').onDelete('SET NULL');
    table.timestamp('requested_at', { useTz: true }).notNullable();
    table.timestamp('provided_at', { useTz: true });
    table.timestamp('transmitted_to_lender_at', { useTz: true });
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.index(['financing_case_id', 'id']);
  });

  await db.schema.createTable('documents', (table) => {
    table.increments('id');
    table.string('financing_case_id', 26).notNullable();
    table.string('partner_id', 100).notNullable();
    table.string('original_name', 255).notNullable();
    table.string('mime_type', 100).notNullable();
    table.integer('file_size').notNullable();
    table.string('category', 60).notNullable();
    table.text('description');
    table.timestamp('uploaded_at', { useTz: true }).notNullable();
    table.string('uploaded_by', 10).notNullable().checkIn(['partner', 'customer', 'operator', 'system'], 'documents_uploaded_by');
    // null: legacy rows from before review statuses existed
    table.string('review_status', 20).checkIn(['PENDING_REVIEW', 'VERIFIED', 'REJECTED', 'SUPERSEDED'], 'documents_review_status');
    table.string('object_key', 200).notNullable().unique();
    table.integer('requested_item_id').references('id').inTable('requested_items').onDelete('SET NULL');
    table.integer('superseded_by').references('id').inTable('documents').onDelete('SET NULL');
    table.text('rejection_reason');
    table.boolean('simulated').notNullable().defaultTo(false);
    table.boolean('signed').notNullable().defaultTo(false);
    table.boolean('internal_only').notNullable().defaultTo(false);
    table.index(['financing_case_id', 'uploaded_at']);
    table.index(['requested_item_id']);
  });
  // The sandbox's signed contract is attached once per case, however often the scenario runs.
  await db.raw("CREATE UNIQUE INDEX documents_one_simulated_signed_contract ON documents (financing_case_id) WHERE simulated AND category = 'signed_contract'");

  await db.schema.createTable('document_tokens', (table) => {
    table.increments('id');
    table.string('token_hash', 64).notNullable().unique();
    table.string('financing_case_id', 26).notNullable();
    table.string('partner_id', 100).notNullable();
    table.string('purpose', 40).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('expires_at', { useTz: true });
    table.timestamp('invalidated_at', { useTz: true });
    table.index(['financing_case_id']);
  });

  // Object keys announced before their bytes are written, or after their rows were deleted;
  // settled with the row's transaction. The sweeper removes what is left over.
  await db.schema.createTable('pending_objects', (table) => {
    table.string('object_key', 200).primary();
    table.string('reason', 10).notNullable().checkIn(['upload', 'delete'], 'pending_objects_reason');
    table.timestamp('announced_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.index(['announced_at']);
  });

  // Status-change events already applied, so a redelivery changes nothing.
  await db.schema.createTable('consumed_events', (table) => {
    table.string('event_id', 64).primary();
    table.timestamp('consumed_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['consumed_events', 'pending_objects', 'document_tokens', 'documents', 'requested_items', 'callback_requests']) {
    await db.schema.dropTableIfExists(table);
  }
}
