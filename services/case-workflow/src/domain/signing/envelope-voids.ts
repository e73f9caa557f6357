import { RetrySchedule, nextAttemptAt } from '@rental/retry-schedule';
import { lenderRetrySchedule } from '../lender/lender-submission';
import type { EnvelopeVoid, EnvelopeVoidQueue, SigningProvider } from './ports';

/** Attempts of one void (about eight hours at the five-minute cap) before it is left to the approval team. */
export const ENVELOPE_VOID_RETRY_SCHEDULE: RetrySchedule = lenderRetrySchedule(100);

export interface EnvelopeVoidDependencies {
  queue: EnvelopeVoidQueue;
  provider: SigningProvider;
  now(): Date;
}

/**
 * One void at the signing provider: a 2xx or 404 ends it; anything else is tried again after 2 s,
 * doubling to 5 minutes (as lender submissions), until the attempts run out.
 */
export async function voidAtProvider(deps: EnvelopeVoidDependencies, job: EnvelopeVoid): Promise<'voided' | 'failed'> {
  try {
    await deps.provider.voidEnvelope({ envelopeId: job.envelopeId, providerEnvelopeId: job.providerEnvelopeId, reason: job.reason });
  } catch (error) {
    const at = deps.now();
    const message = error instanceof Error ? error.message : String(error);
    await deps.queue.markVoidFailed(job.envelopeId, message, nextAttemptAt(ENVELOPE_VOID_RETRY_SCHEDULE, job.attempts, at), at);
    return 'failed';
  }
  await deps.queue.markVoided(job.envelopeId, deps.now());
  return 'voided';
}
