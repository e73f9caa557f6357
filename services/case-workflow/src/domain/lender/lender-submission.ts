import type { LenderAdapter, LenderSubmission, LenderSubmissionQueue } from './ports';

const FIRST_RETRY_MS = 2_000;
const MAX_RETRY_MS = 5 * 60_000;

/** Wait before the next attempt after `attempts` failed ones: 2 s, doubling, at most 5 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

export interface SubmissionDependencies {
  queue: LenderSubmissionQueue;
  lender: LenderAdapter;
  now(): Date;
  /** LENDER_MAX_ATTEMPTS: after this many failed attempts the submission stays failed. */
  maxAttempts?: number;
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
      const exhausted = submission.attempts >= (deps.maxAttempts ?? Number.MAX_SAFE_INTEGER);
      await deps.queue.markFailed(
        submission.id,
        error instanceof Error ? error.message : String(error),
        exhausted ? null : new Date(at.getTime() + retryDelayMs(submission.attempts)),
        at,
      );
      return 'failed' as const;
    }
  });
}
