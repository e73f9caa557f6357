import type { RetrySchedule } from '@rental/retry-schedule';

/** The specification's retry rule: up to 3 retries (4 attempts), the first after 2 s, each wait doubled, capped at 30 s. */
export const RETRY_SCHEDULE: RetrySchedule = { maxAttempts: 1 + 3, firstDelayMs: 2000, maxDelayMs: 30_000 };
