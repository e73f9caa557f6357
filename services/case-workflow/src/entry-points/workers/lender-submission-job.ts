import { type Logger, inTraceOf } from '@rental/logger';
import { QueueWorker, queueWorker } from '@rental/service-host';
import { SubmissionDependencies, submitOne } from '../../domain/lender/lender-submission';
import type { LenderSubmission } from '../../domain/lender/ports';
import { lenderSubmissions } from './metrics';

export interface LenderSubmissionJobOptions {
  /** LENDER_SUBMISSION_CONCURRENCY: submissions with the lender at once in this process. */
  concurrency: number;
  /** LENDER_SUBMISSION_POLL_MS: longest sleep when nothing is queued here (another replica's submissions, retries). */
  pollMs: number;
  log: Logger;
}

/**
 * Hands queued lender submissions to the lender as a queue: up to `concurrency` at once, each
 * claimed (FOR UPDATE SKIP LOCKED, leased) as a slot frees, so one slow lender answer holds up
 * only its own slot. It wakes at once when a submission is queued here; replicas share the queue
 * through the claim, so each submission is with the lender in one process at a time.
 */
export function lenderSubmissionJob(deps: SubmissionDependencies, options: LenderSubmissionJobOptions): QueueWorker<LenderSubmission> {
  // Each attempt continues the trace of the request that queued the submission.
  const traced: SubmissionDependencies = { ...deps, onBehalfOf: inTraceOf };
  const { log } = options;
  // Both series exist from the start, so a dashboard shows 0 rather than nothing.
  for (const outcome of ['submitted', 'failed'] as const) lenderSubmissions.inc({ outcome }, 0);
  return queueWorker({
    name: 'lender-submission',
    concurrency: options.concurrency,
    pollMs: options.pollMs,
    log,
    claim: (limit) => deps.queue.claimDue(deps.now(), limit),
    nextDueAt: () => deps.queue.nextDueAt(),
    process: async (submission) => {
      const outcome = await submitOne(traced, submission);
      lenderSubmissions.inc({ outcome });
      if (outcome === 'failed')
        log.warn({ financingCaseId: submission.financingCaseId, attempt: submission.attempts }, 'lender submission failed; it will be retried');
    },
  });
}
