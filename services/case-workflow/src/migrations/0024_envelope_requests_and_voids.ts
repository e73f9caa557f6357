import { type Knex, addTraceColumns, dropTraceColumns } from '@rental/db';

/**
 * An envelope at the signing provider has a life of its own beside the contract's envelope:
 * `requested` (reserved before the provider is asked, outside any transaction; until
 * `requested_until` the attempt may still be on its way), `accepted` (the provider took it: it is
 * the contract's envelope), `voiding` (replaced or abandoned: to be voided at the provider, a
 * leased queue like lender submissions) and `voided`. The persons it was requested for decide
 * whether a retried start answers it. Envelopes replaced before this migration may still be open
 * at the provider (issue 27 found customers with two invitations), so they are voided now.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('provider_envelopes', (table) => {
    table.string('state', 20).notNullable().defaultTo('accepted');
    table.jsonb('persons');
    table.integer('request_attempts').notNullable().defaultTo(1);
    table.timestamp('requested_until', { useTz: true });
    table.string('void_reason', 40);
    table.integer('void_attempts').notNullable().defaultTo(0);
    table.timestamp('void_next_attempt_at', { useTz: true });
    table.timestamp('void_lease_until', { useTz: true });
    table.text('void_last_error');
    table.timestamp('voided_at', { useTz: true });
    table.index(['financing_case_id']);
    table.index(['state', 'void_next_attempt_at']);
  });
  await addTraceColumns(db, 'provider_envelopes');
  await db.raw(`
    UPDATE provider_envelopes SET state = 'voiding', void_reason = 'replaced', void_next_attempt_at = now()
    WHERE NOT EXISTS (SELECT 1 FROM signature_envelopes e WHERE e.id = provider_envelopes.envelope_id)`);
}

export async function down(db: Knex): Promise<void> {
  await dropTraceColumns(db, 'provider_envelopes');
  await db.schema.alterTable('provider_envelopes', (table) => {
    table.dropIndex(['state', 'void_next_attempt_at']);
    table.dropIndex(['financing_case_id']);
    for (const column of [
      'state',
      'persons',
      'request_attempts',
      'requested_until',
      'void_reason',
      'void_attempts',
      'void_next_attempt_at',
      'void_lease_until',
      'void_last_error',
      'voided_at',
    ])
      table.dropColumn(column);
  });
}
