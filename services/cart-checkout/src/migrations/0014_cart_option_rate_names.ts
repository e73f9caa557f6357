import type { Knex } from '@rental/db';

/**
 * A cart option's rate is stored as monthlyRateAllIn, the name pricing gives it (monthlyRate meant
 * three different rates in three places). The key only occurs in the financing options pricing
 * wrote, so renaming it in the JSON text touches nothing else.
 */
const renameKey = (from: string, to: string) => (db: Knex) =>
  db.raw(`UPDATE carts SET pricing = replace(pricing::text, ?, ?)::jsonb WHERE pricing::text LIKE ?`, [`"${from}":`, `"${to}":`, `%"${from}":%`]);

export async function up(db: Knex): Promise<void> {
  await renameKey('monthlyRate', 'monthlyRateAllIn')(db);
}

export async function down(db: Knex): Promise<void> {
  await renameKey('monthlyRateAllIn', 'monthlyRate')(db);
}
