import type { Knex } from '@rental/db';

/** The name it was applied under before it was named for what it holds; a database migrated then upgrades without running it again. */
export const formerName = '0034_scale34_queue_and_search_indexes';

/**
 * The reads whose cost grew with the number of cases get an index each, so a page
 * costs the same at 10,000 and at 1,000,000 cases.
 *
 * - The ops queue pages quotes in (status_updated_at, financing_case_id) order, plain or by one
 *   status, partner or lender submission status; the columns it shows beside the order are
 *   not in these indexes, so a deep page walks index entries only and joins its 30 rows.
 * - The partner list pages cases in (created_at DESC, id DESC) order within the partner.
 * - A contract and a lender submission are found by their quote (case page, cascades).
 * - Pricing asks whether a partner already has a quote at a rental factor.
 * - `?q=` matches parts of case, quote and financing numbers and the customer's company
 *   (ILIKE '%…%'): trigram indexes (pg_trgm) serve each field, the query unions the matches.
 *
 * pg_trgm is a trusted extension (a database owner may create it). It goes into this service's
 * schema unless the database already has it elsewhere; the operator classes are named with the
 * schema the extension lives in, since the service's search_path holds its own schema only.
 */
export async function up(db: Knex): Promise<void> {
  const {
    rows: [current],
  } = await db.raw<{ rows: { schema: string }[] }>('SELECT current_schema() AS schema');
  await db.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA ??', [current!.schema]);
  const {
    rows: [extension],
  } = await db.raw<{ rows: { schema: string }[] }>(
    "SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'",
  );
  const trigrams = `"${extension!.schema.replace(/"/g, '""')}".gin_trgm_ops`;

  await db.raw('CREATE INDEX quotes_queue_order ON quotes (status_updated_at, financing_case_id)');
  await db.raw('CREATE INDEX quotes_queue_by_status ON quotes (status, status_updated_at, financing_case_id)');
  await db.raw('CREATE INDEX quotes_queue_by_partner ON quotes (partner_id, status_updated_at, financing_case_id)');
  await db.raw(
    'CREATE INDEX quotes_queue_by_lender_submission ON quotes (lender_submission_status, status_updated_at, financing_case_id) WHERE lender_submission_status IS NOT NULL',
  );
  await db.raw('CREATE INDEX quotes_partner_rental_factor ON quotes (partner_id, rental_factor)');
  await db.raw('CREATE INDEX financing_cases_partner_list ON financing_cases (partner_id, created_at DESC, id DESC)');
  // The list's index serves every read the former (partner_id, created_at) one served.
  await db.raw('DROP INDEX financing_cases_partner_id_created_at_index');
  await db.raw('CREATE INDEX contracts_quote_id ON contracts (quote_id)');
  await db.raw('CREATE INDEX lender_submissions_quote_id ON lender_submissions (quote_id)');

  await db.raw(`CREATE INDEX financing_cases_case_number_trigrams ON financing_cases USING gin (case_number ${trigrams})`);
  await db.raw(`CREATE INDEX quotes_quote_number_trigrams ON quotes USING gin (quote_number ${trigrams})`);
  await db.raw(`CREATE INDEX quotes_financing_number_trigrams ON quotes USING gin (financing_number ${trigrams})`);
  await db.raw(`CREATE INDEX quotes_customer_company_trigrams ON quotes USING gin ((customer->>'company') ${trigrams})`);
}

export async function down(db: Knex): Promise<void> {
  for (const index of [
    'quotes_customer_company_trigrams',
    'quotes_financing_number_trigrams',
    'quotes_quote_number_trigrams',
    'financing_cases_case_number_trigrams',
    'lender_submissions_quote_id',
    'contracts_quote_id',
    'financing_cases_partner_list',
    'quotes_partner_rental_factor',
    'quotes_queue_by_lender_submission',
    'quotes_queue_by_partner',
    'quotes_queue_by_status',
    'quotes_queue_order',
  ]) {
    await db.raw('DROP INDEX IF EXISTS ??', [index]);
  }
  await db.raw('CREATE INDEX financing_cases_partner_id_created_at_index ON financing_cases (partner_id, created_at)');
}
