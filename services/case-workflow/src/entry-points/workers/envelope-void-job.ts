import { type Logger, inTraceOf } from '@rental/logger';
import { QueueWorker, queueWorker } from '@rental/service-host';
import { EnvelopeVoidDependencies, voidAtProvider } from '../../domain/signing/envelope-voids';
import type { EnvelopeVoid } from '../../domain/signing/ports';
import { envelopeVoids } from './metrics';

/** Longest sleep when nothing is due; the worker also sleeps exactly until the next void falls due, and wakes on each new one. */
const POLL_MS = 30_000;

/**
 * Voids replaced and abandoned envelopes at the signing provider, each under the trace of the
 * request that replaced or reserved it, several at once; a failed void is tried again later.
 */
export function envelopeVoidJob(deps: EnvelopeVoidDependencies, log: Logger): QueueWorker<EnvelopeVoid> {
  return queueWorker({
    name: 'envelope-void',
    concurrency: 8,
    pollMs: POLL_MS,
    claim: (limit) => deps.queue.claimDue(deps.now(), limit),
    nextDueAt: () => deps.queue.nextDueAt(),
    process: async (job) => {
      const outcome = await inTraceOf(job, () => voidAtProvider(deps, job));
      envelopeVoids.inc({ outcome });
      if (outcome === 'failed')
        log.warn({ envelopeId: job.envelopeId, attempt: job.attempts }, 'the signing provider did not void an envelope; it will be tried again');
    },
    log,
  });
}
