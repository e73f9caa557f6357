import type { Knex } from '@rental/db';
import { mailQueueColumns } from './mail-queue-columns';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('webhook_endpoints', (table) => {
    table.string('id', 26).primary();
    table.string('partner_id', 100).notNullable();
    // As registered, shown to the partner; normalized_url is what uniqueness is decided on.
    table.text('url').notNullable();
    table.text('normalized_url').notNullable();
    // Needed in clear to sign every delivery; shown only in the create response.
    table.text('secret').notNullable();
    table.boolean('active').notNullable().defaultTo(true);
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.timestamp('deleted_at', { useTz: true });
    table.index(['partner_id', 'created_at']);
  });
  await db.raw('CREATE UNIQUE INDEX webhook_endpoints_partner_url_unique ON webhook_endpoints (partner_id, normalized_url) WHERE deleted_at IS NULL');

  await db.schema.createTable('event_inbox', (table) => {
    // The event id: a redelivered or republished event finds its row and creates nothing.
    table.string('id', 100).primary();
    table.string('partner_id', 100).notNullable();
    table.string('environment', 20).notNullable();
    // The whole event as received (text, not jsonb: jsonb refuses a \u0000 inside a string,
    // and a message that can never be stored would be redelivered for ever).
    table.text('event').notNullable();
    // The exact bytes every endpoint receives, so a retry sends the same body.
    table.text('body').notNullable();
    table.timestamp('occurred_at', { useTz: true }).notNullable();
    table.timestamp('received_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.index(['received_at']);
  });

  await db.schema.createTable('deliveries', (table) => {
    table.bigIncrements('id');
    table.string('event_id', 100).notNullable().references('id').inTable('event_inbox').onDelete('CASCADE');
    table.string('endpoint_id', 26).notNullable().references('id').inTable('webhook_endpoints');
    table.string('partner_id', 100).notNullable();
    // pending, succeeded, dropped
    table.string('status', 20).notNullable();
    // retries_exhausted, endpoint_paused, endpoint_deleted
    table.string('drop_reason', 40);
    table.integer('attempts').notNullable().defaultTo(0);
    // The schedule lives here, so a retry survives a restart; null once final.
    table.timestamp('next_attempt_at', { useTz: true });
    // Set while one worker sends it; an expired lease (a crash mid-attempt) makes it due again.
    table.timestamp('lease_expires_at', { useTz: true });
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('completed_at', { useTz: true });
    table.unique(['event_id', 'endpoint_id']);
    table.index(['endpoint_id', 'created_at']);
  });
  await db.raw("CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending'");

  await db.schema.createTable('delivery_attempts', (table) => {
    table.bigIncrements('id');
    table.bigInteger('delivery_id').notNullable().references('id').inTable('deliveries').onDelete('CASCADE');
    table.integer('attempt').notNullable();
    table.timestamp('started_at', { useTz: true }).notNullable();
    table.integer('duration_ms').notNullable();
    table.integer('status_code');
    table.boolean('succeeded').notNullable();
    table.text('error');
    table.unique(['delivery_id', 'attempt']);
  });

  await db.schema.createTable('mail_log', (table) => {
    table.bigIncrements('id');
    table.string('event_id', 100).notNullable().references('id').inTable('event_inbox').onDelete('CASCADE');
    table.string('partner_id', 100).notNullable();
    // partner, financing_partner, distribution_hub
    table.string('recipient_role', 30).notNullable();
    // resolved when sending; null until then or when no contact address exists
    table.string('to_address', 320);
    table.text('subject');
    mailQueueColumns(db, table);
    table.unique(['event_id', 'recipient_role']);
  });
  await db.raw("CREATE INDEX mail_log_due ON mail_log (next_attempt_at) WHERE status = 'pending'");
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['mail_log', 'delivery_attempts', 'deliveries', 'event_inbox', 'webhook_endpoints']) {
    await db.schema.dropTable(table);
  }
}
