/** The specification's retry rule: up to 3 retries, the first after 2 s, each wait doubled, capped at 30 s. */
export const RETRY_SCHEDULE = { maxRetries: 3, firstDelayMs: 2000, maxDelayMs: 30_000 } as const;

export type RetrySchedule = { maxRetries: number; firstDelayMs: number; maxDelayMs: number };

/**
 * The wait before the next attempt after `failedAttempts` attempts failed, or undefined when
 * the delivery is to be dropped (the last retry failed).
 */
export function retryDelayMs(failedAttempts: number, schedule: RetrySchedule = RETRY_SCHEDULE): number | undefined {
  if (failedAttempts < 1 || failedAttempts > schedule.maxRetries) return undefined;
  return Math.min(schedule.firstDelayMs * 2 ** (failedAttempts - 1), schedule.maxDelayMs);
}
