import type { Knex } from '@rental/db';
import type { RetrySchedule } from '@rental/retry-schedule';
import type {
  ApplicationSource,
  CreditCheck,
  LatestSubmission,
  Lender,
  LenderDirectory,
  LenderSubmission,
  LenderSubmissionQueue,
} from '../domain/lender/ports';
import { lenderRetrySchedule } from '../domain/lender/lender-submission';

interface SubmissionRow {
  id: number;
  application_id: string;
  quote_id: string;
  financing_case_id: string;
  partner_id: string;
  lender_id: string | null;
  attempts: number;
  request_id: string | null;
  traceparent: string | null;
}

/**
 * A worker owns a claimed submission this long. It must outlast one attempt (credit check and
 * lender call, 10 s each at most), so that no other replica takes it while it is in flight.
 */
export const LEASE_SECONDS = 60;

const toSubmission = (row: SubmissionRow): LenderSubmission => ({
  id: row.id,
  applicationId: row.application_id,
  quoteId: row.quote_id,
  financingCaseId: row.financing_case_id,
  partnerId: row.partner_id,
  lenderId: row.lender_id,
  attempts: row.attempts,
  requestId: row.request_id,
  traceparent: row.traceparent,
});

/**
 * Lender submissions as a work queue: leased so that replicas never submit one twice at a time,
 * and given up after the schedule's `maxAttempts`. Each outcome updates the quote's lenderSubmissionStatus in
 * the same transaction and is recorded in the case's history by the system.
 */
export class LenderSubmissionRepository implements LenderSubmissionQueue, ApplicationSource, LenderDirectory {
  constructor(
    private readonly db: Knex,
    private readonly schedule: Pick<RetrySchedule, 'maxAttempts'> = lenderRetrySchedule(),
  ) {}

  async claimDue(now: Date, limit: number): Promise<LenderSubmission[]> {
    const result = await this.db.raw(
      `
      UPDATE lender_submissions SET lease_until = ?::timestamptz + make_interval(secs => ?), attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM lender_submissions
        WHERE status IN ('pending', 'failed') AND superseded_at IS NULL AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?) AND attempts < ?
        ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED
      )
      RETURNING id, application_id, quote_id, financing_case_id, partner_id, lender_id, attempts, request_id, traceparent`,
      [now, LEASE_SECONDS, now, now, this.schedule.maxAttempts, limit],
    );
    return (result.rows as SubmissionRow[]).sort((a, b) => a.id - b.id).map(toSubmission);
  }

  async nextDueAt(): Promise<Date | undefined> {
    const row: { due: Date | null } | undefined = await this.db('lender_submissions')
      .whereIn('status', ['pending', 'failed'])
      .whereNull('superseded_at')
      .where('attempts', '<', this.schedule.maxAttempts)
      .first(this.db.raw('min(greatest(next_attempt_at, coalesce(lease_until, next_attempt_at))) AS due'));
    return row?.due ?? undefined;
  }

  async markSubmitted(id: number, reference: string, at: Date): Promise<void> {
    await this.recordOutcome(id, at, {
      submission: { status: 'submitted', reference, submitted_at: at, lease_until: null, last_error: null },
      quote: { lender_submission_status: 'submitted', last_lender_submission_at: at, financing_number: reference, updated_at: at },
      details: { outcome: 'submitted', reference },
    });
  }

  async markFailed(id: number, error: string, retryAt: Date | null, at: Date): Promise<void> {
    await this.recordOutcome(id, at, {
      submission: {
        status: 'failed',
        last_error: error.slice(0, 2000),
        next_attempt_at: retryAt ?? at,
        lease_until: null,
        ...(retryAt ? {} : { attempts: this.schedule.maxAttempts }),
      },
      quote: { lender_submission_status: 'failed', last_lender_submission_at: at, updated_at: at },
      details: { outcome: 'failed', error: error.slice(0, 500), retryAt: retryAt?.toISOString() ?? null },
    });
  }

  /**
   * The submission's outcome, the quote's lenderSubmissionStatus and the attempt in the case's
   * history, written in one statement after the case's lock; nothing when the submission is gone.
   */
  private async recordOutcome(
    id: number,
    at: Date,
    outcome: { submission: Record<string, unknown>; quote: Record<string, unknown>; details: Record<string, unknown> },
  ): Promise<void> {
    await this.db.transaction(async (trx) => {
      await lockCaseOf(trx, id);
      const submission = trx('lender_submissions')
        .where({ id })
        .update(outcome.submission)
        .returning(['quote_id', 'financing_case_id', 'attempts', 'lender_id', 'superseded_at']);
      // The quote shows its latest submission: a superseded one's late outcome only joins the history.
      const quote = trx('quotes').whereIn('id', trx('outcome').whereNull('superseded_at').select('quote_id')).update(outcome.quote);
      // One attempt in the case's history, by the system (the worker acts for nobody in particular).
      await trx.raw(
        `
        WITH outcome AS (?), quote_outcome AS (?)
        INSERT INTO case_history (financing_case_id, at, actor_type, actor_id, actor_name, action, resource_type, from_status, to_status, reason, details)
        SELECT financing_case_id, ?, 'system', NULL, NULL, 'lender_submission', 'quote', NULL, NULL, NULL, jsonb_build_object('lenderId', lender_id, 'attempt', attempts) || ?::jsonb
        FROM outcome`,
        [submission, quote, at, JSON.stringify(outcome.details)],
      );
    });
  }

  async creditCheckOf(submissionId: number): Promise<CreditCheck | null> {
    const row: { credit_check: CreditCheck | null } | undefined = await this.db('lender_submissions').where({ id: submissionId }).first('credit_check');
    const check = row?.credit_check;
    // jsonb keeps its own key order; the check is rebuilt so every attempt sends the same bytes.
    return check ? { provider: check.provider, reference: check.reference, outcome: check.outcome, score: check.score, checkedAt: check.checkedAt } : null;
  }

  async keepCreditCheck(submissionId: number, check: CreditCheck): Promise<void> {
    await this.db('lender_submissions')
      .where({ id: submissionId })
      .update({ credit_check: JSON.stringify(check) });
  }

  async latestSubmission(financingCaseId: string): Promise<LatestSubmission | undefined> {
    const row: { id: number; application_id: string; lender_id: string | null; status: LatestSubmission['status']; reference: string | null } | undefined =
      await this.db('lender_submissions')
        .where({ financing_case_id: financingCaseId })
        .orderBy('id', 'desc')
        .first('id', 'application_id', 'lender_id', 'status', 'reference');
    return row ? { id: row.id, applicationId: row.application_id, lenderId: row.lender_id, status: row.status, reference: row.reference } : undefined;
  }

  async findLender(id: string): Promise<Lender | undefined> {
    const row: { id: string; name: string; intake_url: string | null; webhook_secret: string } | undefined = await this.db('lenders').where({ id }).first();
    return row ? { id: row.id, name: row.name, intakeUrl: row.intake_url, webhookSecret: row.webhook_secret } : undefined;
  }
}

/**
 * The case first, as every case transaction locks it (case, then quote): the outcome writes the
 * quote and the case's history, and taking the quote before the case would deadlock with a
 * change of the case running at the same time.
 */
async function lockCaseOf(trx: Knex.Transaction, submissionId: number): Promise<void> {
  await trx.raw('SELECT 1 FROM financing_cases WHERE id = (SELECT financing_case_id FROM lender_submissions WHERE id = ?) FOR UPDATE', [submissionId]);
}

/** Loads the fixture's lenders (seed command): intake URL and secret, never logged. */
export async function seedLenders(db: Knex, lenders: { id: string; name: string; intakeUrl: string | null; webhookSecret: string }[]): Promise<void> {
  const now = new Date();
  await db.transaction(async (trx) => {
    for (const lender of lenders) {
      await trx('lenders')
        .insert({ id: lender.id, name: lender.name, intake_url: lender.intakeUrl, webhook_secret: lender.webhookSecret, updated_at: now })
        .onConflict('id')
        .merge(['name', 'intake_url', 'webhook_secret']);
    }
  });
}
