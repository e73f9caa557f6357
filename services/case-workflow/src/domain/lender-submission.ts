import type { LenderAdapter, LenderSubmissionQueue } from './ports';

const FIRST_RETRY_MS = 2_000;
const MAX_RETRY_MS = 5 * 60_000;

/** Wait before the next attempt after `attempts` failed ones: 2 s, doubling, at most 5 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

export interface SubmissionRound {
  submitted: number;
  failed: number;
}

/**
 * One round of the lender-submission worker: every due submission is handed to the lender;
 * accepted ones become submitted, failures are kept as failed and retried after a growing wait.
 */
export async function submitDueSubmissions(deps: { queue: LenderSubmissionQueue; lender: LenderAdapter; now(): Date }, limit = 20): Promise<SubmissionRound> {
  const due = await deps.queue.claimDue(deps.now(), limit);
  let submitted = 0;
  let failed = 0;
  for (const submission of due) {
    try {
      const { reference } = await deps.lender.submit(submission);
      await deps.queue.markSubmitted(submission.id, reference, deps.now());
      submitted += 1;
    } catch (error) {
      const at = deps.now();
      await deps.queue.markFailed(submission.id, error instanceof Error ? error.message : String(error), new Date(at.getTime() + retryDelayMs(submission.attempts)), at);
      failed += 1;
    }
  }
  return { submitted, failed };
}
