import { backoffDelayMs, givesUp, nextAttemptAt, nextRetryDelayMs } from './index';

const schedule = { firstDelayMs: 2000, maxDelayMs: 30_000, maxAttempts: 4 };

describe('retry schedule', () => {
  it('when attempts keep failing, then each wait doubles the one before, from the first wait up to the cap', () => {
    expect([1, 2, 3, 4, 5, 8].map((failed) => backoffDelayMs(schedule, failed))).toEqual([2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it('when nothing has failed yet, then the wait is the first one', () => {
    expect(backoffDelayMs(schedule, 0)).toBe(2000);
  });

  it('when the last of maxAttempts attempts failed, then the work is given up and there is no next wait', () => {
    expect([1, 2, 3, 4, 5].map((failed) => givesUp(schedule, failed))).toEqual([false, false, false, true, true]);
    expect([1, 2, 3, 4, 5].map((failed) => nextRetryDelayMs(schedule, failed))).toEqual([2000, 4000, 8000, undefined, undefined]);
  });

  it('when no attempt has failed, then there is no retry to schedule', () => {
    expect(nextRetryDelayMs(schedule, 0)).toBeUndefined();
  });

  it('when an attempt failed, then the next one falls due a wait after the failure, and none once the work is given up', () => {
    const failedAt = new Date('2026-01-01T00:00:00.000Z');
    expect([1, 2, 3, 4].map((failed) => nextAttemptAt(schedule, failed, failedAt)?.toISOString() ?? null)).toEqual([
      '2026-01-01T00:00:02.000Z',
      '2026-01-01T00:00:04.000Z',
      '2026-01-01T00:00:08.000Z',
      null,
    ]);
  });
});
