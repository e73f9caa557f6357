import type { Knex } from '@rental/db';

/**
 * The sandbox clock (test clocks, issue 33): each case keeps how far a partner moved its clock
 * forward; its clock is the wall clock plus this offset (0 for every case that was never moved,
 * and for every case in production). The partial index finds the few moved cases, whose due
 * work the scheduler looks for on their own clock.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('financing_cases', (table) => {
    table.bigInteger('clock_offset_ms').notNullable().defaultTo(0);
  });
  await db.raw('CREATE INDEX financing_cases_clock_moved ON financing_cases (id) WHERE clock_offset_ms <> 0');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS financing_cases_clock_moved');
  await db.schema.alterTable('financing_cases', (table) => {
    table.dropColumn('clock_offset_ms');
  });
}
