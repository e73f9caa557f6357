import type { Knex } from '@rental/db';

/** The rate-limit budgets every gateway replica shares (rate-limiter-flexible's table layout). */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('rate_limits', (table) => {
    // `key:<sha-256 of the API key>` or `address:<client address>`; never a key itself.
    table.string('key', 255).primary();
    table.integer('points').notNullable().defaultTo(0);
    table.bigInteger('expire');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('rate_limits');
}
