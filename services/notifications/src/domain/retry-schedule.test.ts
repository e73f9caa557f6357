import { nextRetryDelayMs } from '@rental/retry-schedule';
import { RETRY_SCHEDULE } from './retry-schedule';

describe('the webhook retry schedule', () => {
  it('when attempts fail, then retries follow after 2, 4 and 8 seconds and the fourth failure drops the delivery', () => {
    expect([1, 2, 3, 4].map((failed) => nextRetryDelayMs(RETRY_SCHEDULE, failed))).toEqual([2000, 4000, 8000, undefined]);
  });

  it('when a schedule has more retries, then the wait doubles up to the 30 second cap', () => {
    const longer = { ...RETRY_SCHEDULE, maxAttempts: 1 + 7 };
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((failed) => nextRetryDelayMs(longer, failed))).toEqual([2000, 4000, 8000, 16000, 30000, 30000, 30000, undefined]);
  });

  it('when nothing failed yet, then there is no retry to schedule', () => {
    expect(nextRetryDelayMs(RETRY_SCHEDULE, 0)).toBeUndefined();
  });
});
