import type { Knex } from '@rental/db';

/**
 * A submission replaced by a newer one of its case (a resubmission, a new entry into finance
 * review) is never attempted again: the worker's claim skips rows with `superseded_at`, and the
 * column is written (not only read) so that a claim racing the replacement re-checks the row.
 * The case's submissions are looked up by case while the case is locked, hence the index.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('lender_submissions', (table) => {
    table.timestamp('superseded_at', { useTz: true });
    table.index(['financing_case_id', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('lender_submissions', (table) => {
    table.dropIndex(['financing_case_id', 'id']);
    table.dropColumn('superseded_at');
  });
}
