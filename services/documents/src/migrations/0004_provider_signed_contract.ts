import type { Knex } from '@rental/db';

/** The name it was applied under before it was named for what it holds; a database migrated then upgrades without running it again. */
export const formerName = '0004_lender15_provider_signed_contract';

/** The signing provider's signed contract is stored once per case, however often its callback comes; a superseded one no longer counts. */
export async function up(db: Knex): Promise<void> {
  await db.raw(
    "CREATE UNIQUE INDEX documents_one_provider_signed_contract ON documents (financing_case_id) WHERE NOT simulated AND category = 'signed_contract' AND review_status IS DISTINCT FROM 'SUPERSEDED'",
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX documents_one_provider_signed_contract');
}
