import { addOutboxRequestId, addOutboxTraceparent, createOutboxTable } from '@rental/bus';
import type { Knex } from '@rental/db';

/**
 * Partners can be suspended; keys get an id, a name, a prefix, who made them, an expiry, a revoke
 * reason and their last use (issues 28, 29); every change of a partner's access is audited.
 * Keys stay stored only as their SHA-256. The outbox carries the mails to the partner's contact
 * (mail.requested, sent by notifications) in the transaction of the change.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('partners', (table) => {
    table.string('contact_email', 320);
    table.string('status', 20).notNullable().defaultTo('active');
    table.timestamp('suspended_at', { useTz: true });
    table.string('suspension_reason', 1000);
  });
  await db.schema.alterTable('api_keys', (table) => {
    table.string('id', 40);
    table.string('name', 100).notNullable().defaultTo('seed key');
    table.string('prefix', 12).notNullable().defaultTo('');
    table.string('created_by_type', 20).notNullable().defaultTo('seed');
    table.string('created_by_id', 100).notNullable().defaultTo('');
    table.string('created_by_name', 300).notNullable().defaultTo('');
    table.timestamp('expires_at', { useTz: true });
    table.string('revoke_reason', 1000);
    table.timestamp('last_used_at', { useTz: true });
    // When the partner was told that the key will expire within 7 days: once per key.
    table.timestamp('expiry_notice_at', { useTz: true });
  });
  await db.raw("UPDATE api_keys SET id = 'key_' || replace(gen_random_uuid()::text, '-', '') WHERE id IS NULL");
  await db.schema.alterTable('api_keys', (table) => {
    table.string('id', 40).notNullable().alter();
    table.unique(['id']);
    table.index(['partner_id', 'environment', 'created_at']);
  });
  await db.schema.createTable('partner_audit', (table) => {
    table.bigIncrements('seq').primary();
    table.string('id', 40).notNullable().unique();
    table.string('partner_id', 100).notNullable().references('id').inTable('partners');
    table.timestamp('at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.string('actor_type', 20).notNullable();
    table.string('actor_id', 100).notNullable();
    table.string('actor_name', 300).notNullable();
    table.string('action', 60).notNullable();
    table.string('target_type', 30).notNullable();
    table.string('target_id', 100).notNullable();
    table.string('target_name', 300).notNullable();
    table.string('reason', 1000).notNullable().defaultTo('');
    table.index(['partner_id', 'seq']);
  });
  // The expiry notices run in one replica at a time (postgresLease of @rental/service-host).
  await db.schema.createTable('scheduler_leases', (table) => {
    table.string('name', 64).primary();
    table.string('holder', 128).notNullable();
    table.timestamp('lease_until', { useTz: true }).notNullable();
  });
  await createOutboxTable(db);
  await addOutboxRequestId(db);
  await addOutboxTraceparent(db);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('outbox');
  await db.schema.dropTable('scheduler_leases');
  await db.schema.dropTable('partner_audit');
  await db.schema.alterTable('api_keys', (table) => {
    table.dropUnique(['id']);
    table.dropIndex(['partner_id', 'environment', 'created_at']);
    for (const column of [
      'id',
      'name',
      'prefix',
      'created_by_type',
      'created_by_id',
      'created_by_name',
      'expires_at',
      'revoke_reason',
      'last_used_at',
      'expiry_notice_at',
    ])
      table.dropColumn(column);
  });
  await db.schema.alterTable('partners', (table) => {
    for (const column of ['contact_email', 'status', 'suspended_at', 'suspension_reason']) table.dropColumn(column);
  });
}
