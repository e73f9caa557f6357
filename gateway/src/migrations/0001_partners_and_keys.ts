import type { Knex } from '@rental/db';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('partners', (table) => {
    table.string('id', 100).primary();
    table.string('name', 300).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable('api_keys', (table) => {
    // Only the SHA-256 of a key is stored; the key itself is shown once, in the partner portal.
    table.string('key_hash', 64).primary();
    table.string('partner_id', 100).notNullable().references('id').inTable('partners');
    table.string('environment', 20).notNullable();
    table.specificType('roles', 'text[]').notNullable().defaultTo('{}');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('revoked_at', { useTz: true });
    table.index(['partner_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('api_keys');
  await db.schema.dropTable('partners');
}
