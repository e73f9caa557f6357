/** How failed work is tried again: a first wait, doubled after each further failure up to a cap, and a last attempt. */
export interface RetrySchedule {
  firstDelayMs: number;
  maxDelayMs: number;
  /** Attempts in all, the first included: when that many have failed, there is no further one. */
  maxAttempts: number;
}

/** The wait after `failedAttempts` failures (the first counts as one): firstDelayMs, doubling, at most maxDelayMs. */
export function backoffDelayMs(schedule: Pick<RetrySchedule, 'firstDelayMs' | 'maxDelayMs'>, failedAttempts: number): number {
  return Math.min(schedule.firstDelayMs * 2 ** Math.max(0, failedAttempts - 1), schedule.maxDelayMs);
}

/** Whether the work is given up after `failedAttempts` failures. */
export function givesUp(schedule: Pick<RetrySchedule, 'maxAttempts'>, failedAttempts: number): boolean {
  return failedAttempts >= schedule.maxAttempts;
}

/** The wait before the next attempt after `failedAttempts` failures, or undefined when there is none (given up, or nothing failed yet). */
export function nextRetryDelayMs(schedule: RetrySchedule, failedAttempts: number): number | undefined {
  if (failedAttempts < 1 || givesUp(schedule, failedAttempts)) return undefined;
  return backoffDelayMs(schedule, failedAttempts);
}

/** When the attempt after `failedAttempts` failures falls due, counted from the failure at `failedAt`; null when the work is given up. */
export function nextAttemptAt(schedule: RetrySchedule, failedAttempts: number, failedAt: Date): Date | null {
  const delayMs = nextRetryDelayMs(schedule, failedAttempts);
  return delayMs === undefined ? null : new Date(failedAt.getTime() + delayMs);
}
