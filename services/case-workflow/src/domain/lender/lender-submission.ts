import { RetrySchedule, nextAttemptAt } from '@rental/retry-schedule';
import type { LenderAdapter, LenderSubmission, LenderSubmissionQueue } from './ports';

/** Retries of a lender submission: 2 s, doubling, at most 5 minutes; given up after `maxAttempts` (LENDER_MAX_ATTEMPTS; none: never). */
export const lenderRetrySchedule = (maxAttempts = Number.MAX_SAFE_INTEGER): RetrySchedule => ({ firstDelayMs: 2_000, maxDelayMs: 5 * 60_000, maxAttempts });

export interface SubmissionDependencies {
  queue: LenderSubmissionQueue;
  lender: LenderAdapter;
  now(): Date;
  /** After its last attempt failed the submission stays failed; default: lenderRetrySchedule(), never given up. */
  schedule?: RetrySchedule;
  /** Runs one submission's attempt on behalf of the request that queued it (its trace); default: as is. */
  onBehalfOf?<T>(submission: LenderSubmission, attempt: () => Promise<T>): Promise<T>;
}

export type SubmissionOutcome = 'submitted' | 'failed';

/**
 * One claimed submission handed to the lender: accepted ones become submitted, failures are
 * kept as failed and retried after a growing wait until the attempts run out. The lender is
 * called outside any transaction; each outcome is written in one of its own.
 */
export function submitOne(deps: SubmissionDependencies, submission: LenderSubmission): Promise<SubmissionOutcome> {
  const onBehalfOf = deps.onBehalfOf ?? ((_submission, attempt) => attempt());
  return onBehalfOf(submission, async () => {
    try {
      const { reference } = await deps.lender.submit(submission);
      await deps.queue.markSubmitted(submission.id, reference, deps.now());
      return 'submitted' as const;
    } catch (error) {
      const at = deps.now();
      const retryAt = nextAttemptAt(deps.schedule ?? lenderRetrySchedule(), submission.attempts, at);
      await deps.queue.markFailed(submission.id, error instanceof Error ? error.message : String(error), retryAt, at);
      return 'failed' as const;
    }
  });
}
