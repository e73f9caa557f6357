import type { Knex } from '@rental/db';
import { ENVELOPE_VOID_RETRY_SCHEDULE } from '../domain/signing/envelope-voids';
import type { EnvelopeVoid, EnvelopeVoidQueue } from '../domain/signing/ports';

/** A worker owns a claimed void this long: one attempt takes at most the provider's 10 s. */
const LEASE_SECONDS = 30;

interface VoidRow {
  envelope_id: string;
  financing_case_id: string;
  provider_envelope_id: string | null;
  void_reason: EnvelopeVoid['reason'];
  void_attempts: number;
  request_id: string | null;
  traceparent: string | null;
}

/** Due voids, and requests abandoned past their lease, which become voids as they are claimed (bindings: now, now, max, now). */
const DUE = `(state = 'voiding' AND void_next_attempt_at <= ? AND (void_lease_until IS NULL OR void_lease_until < ?) AND void_attempts < ?)
  OR (state = 'requested' AND requested_until < ?)`;

/**
 * The voids owed to the signing provider as a leased work queue in provider_envelopes (claimed
 * with SKIP LOCKED, so replicas never void one twice at a time and a case's transaction holding
 * the row is never waited for). A finished void is written after the case's lock, as every
 * change of a case, with its entry in the case's history.
 */
export class EnvelopeVoidRepository implements EnvelopeVoidQueue {
  constructor(private readonly db: Knex) {}

  async claimDue(now: Date, limit: number): Promise<EnvelopeVoid[]> {
    const result = await this.db.raw(
      `
      UPDATE provider_envelopes SET state = 'voiding', void_reason = coalesce(void_reason, 'abandoned'), void_attempts = void_attempts + 1,
        void_lease_until = ?::timestamptz + make_interval(secs => ?)
      WHERE envelope_id IN (SELECT envelope_id FROM provider_envelopes WHERE ${DUE} ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED)
      RETURNING envelope_id, financing_case_id, provider_envelope_id, void_reason, void_attempts, request_id, traceparent`,
      [now, LEASE_SECONDS, now, now, ENVELOPE_VOID_RETRY_SCHEDULE.maxAttempts, now, limit],
    );
    return (result.rows as VoidRow[]).map((row) => ({
      envelopeId: row.envelope_id,
      financingCaseId: row.financing_case_id,
      providerEnvelopeId: row.provider_envelope_id,
      reason: row.void_reason,
      attempts: row.void_attempts,
      requestId: row.request_id,
      traceparent: row.traceparent,
    }));
  }

  async nextDueAt(): Promise<Date | undefined> {
    const result = await this.db.raw(
      `
      SELECT min(CASE WHEN state = 'voiding' THEN greatest(void_next_attempt_at, coalesce(void_lease_until, void_next_attempt_at)) ELSE requested_until END) AS due
      FROM provider_envelopes WHERE (state = 'voiding' AND void_attempts < ?) OR state = 'requested'`,
      [ENVELOPE_VOID_RETRY_SCHEDULE.maxAttempts],
    );
    return (result.rows[0]?.due as Date | null) ?? undefined;
  }

  async markVoided(envelopeId: string, at: Date): Promise<void> {
    await this.recordOutcome(envelopeId, { state: 'voided', voided_at: at, void_lease_until: null, void_last_error: null }, at, 'envelope_voided');
  }

  async markVoidFailed(envelopeId: string, error: string, retryAt: Date | null, at: Date): Promise<void> {
    const attempts = retryAt ? {} : { void_attempts: ENVELOPE_VOID_RETRY_SCHEDULE.maxAttempts };
    await this.recordOutcome(
      envelopeId,
      { void_last_error: error.slice(0, 2000), void_next_attempt_at: retryAt ?? at, void_lease_until: null, ...attempts },
      at,
      retryAt ? null : 'envelope_void_failed',
    );
  }

  /** The outcome after the case's lock (case first, as every case transaction); the end of a void in the case's history, by the system. */
  private async recordOutcome(envelopeId: string, changes: Record<string, unknown>, at: Date, historyAction: string | null): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx.raw('SELECT 1 FROM financing_cases WHERE id = (SELECT financing_case_id FROM provider_envelopes WHERE envelope_id = ?) FOR UPDATE', [
        envelopeId,
      ]);
      const [row] = (await trx('provider_envelopes')
        .where({ envelope_id: envelopeId, state: 'voiding' })
        .update(changes)
        .returning(['financing_case_id', 'provider_envelope_id', 'void_reason', 'void_attempts', 'void_last_error'])) as {
        financing_case_id: string;
        provider_envelope_id: string | null;
        void_reason: string;
        void_attempts: number;
        void_last_error: string | null;
      }[];
      if (!row || !historyAction) return;
      await trx('case_history').insert({
        financing_case_id: row.financing_case_id,
        at,
        actor_type: 'system',
        actor_id: null,
        actor_name: null,
        action: historyAction,
        resource_type: 'contract',
        from_status: null,
        to_status: null,
        reason: row.void_reason,
        details: JSON.stringify({ envelopeId, providerEnvelopeId: row.provider_envelope_id, attempts: row.void_attempts, lastError: row.void_last_error }),
      });
    });
  }
}
