import type { Knex } from '@rental/db';
import type { LenderSubmission, LenderSubmissionQueue } from '../domain/ports';

interface SubmissionRow {
  id: number;
  quote_id: string;
  financing_case_id: string;
  partner_id: string;
  lender_id: string | null;
  attempts: number;
}

const LEASE_SECONDS = 60;

const toSubmission = (row: SubmissionRow): LenderSubmission => ({
  id: row.id,
  quoteId: row.quote_id,
  financingCaseId: row.financing_case_id,
  partnerId: row.partner_id,
  lenderId: row.lender_id,
  attempts: row.attempts,
});

/** Lender submissions as a work queue: leased so that replicas never submit one twice at a time. */
export class LenderSubmissionRepository implements LenderSubmissionQueue {
  constructor(private readonly db: Knex) {}

  async claimDue(now: Date, limit: number): Promise<LenderSubmission[]> {
    const result = await this.db.raw(`
      UPDATE lender_submissions SET lease_until = ?::timestamptz + make_interval(secs => ?), attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM lender_submissions
        WHERE status IN ('pending', 'failed') AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)
        ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED
      )
      RETURNING id, quote_id, financing_case_id, partner_id, lender_id, attempts`, [now, LEASE_SECONDS, now, now, limit]);
    return (result.rows as SubmissionRow[]).sort((a, b) => a.id - b.id).map(toSubmission);
  }

  async markSubmitted(id: number, reference: string, at: Date): Promise<void> {
    await this.db.transaction(async (trx) => {
      const [row] = await trx('lender_submissions').where({ id })
        .update({ status: 'submitted', reference, submitted_at: at, lease_until: null, last_error: null }).returning('quote_id') as { quote_id: string }[];
      if (row) await trx('quotes').where({ id: row.quote_id }).update({ lender_submission_status: 'submitted', last_lender_submission_at: at, updated_at: at });
    });
  }

  async markFailed(id: number, error: string, retryAt: Date, at: Date): Promise<void> {
    await this.db.transaction(async (trx) => {
      const [row] = await trx('lender_submissions').where({ id })
        .update({ status: 'failed', last_error: error.slice(0, 2000), next_attempt_at: retryAt, lease_until: null }).returning('quote_id') as { quote_id: string }[];
      if (row) await trx('quotes').where({ id: row.quote_id }).update({ lender_submission_status: 'failed', last_lender_submission_at: at, updated_at: at });
    });
  }
}
