import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('when a client bursts past its bucket, then it is refused with the wait until the next token, and refilled later', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ perSecond: 2, burst: 3 }, () => now);
    expect([1, 2, 3].map(() => limiter.take('a').allowed)).toEqual([true, true, true]);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take('b').allowed).toBe(true);
    now += 500;
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    now += 10_000;
    expect([1, 2, 3, 4].map(() => limiter.take('a').allowed)).toEqual([true, true, true, false]);
  });

  it('when the rate is slow, then Retry-After covers the whole wait', () => {
    let now = 0;
    const limiter = new RateLimiter({ perSecond: 0.2, burst: 1 }, () => now);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 5 });
    now += 5000;
    expect(limiter.take('a').allowed).toBe(true);
  });

  it('when the limit is 0, then nothing is limited', () => {
    const limiter = new RateLimiter({ perSecond: 0, burst: 0 });
    expect(Array.from({ length: 100 }, () => limiter.take('a').allowed).every(Boolean)).toBe(true);
  });
});
