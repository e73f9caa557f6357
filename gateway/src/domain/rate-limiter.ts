/**
 * Token buckets per key (an API key hash or a client address). Each bucket refills at
 * `perSecond` up to `burst`; a request takes one token or is refused with the wait until the
 * next one. Buckets live in this process: with several gateway replicas the limit applies per
 * replica (docs/operations.md).
 */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(private readonly limit: RateLimit, private readonly now: () => number = Date.now) {}

  /** A limit of 0 requests per second switches limiting off. */
  get enabled(): boolean {
    return this.limit.perSecond > 0;
  }

  take(key: string): RateDecision {
    if (!this.enabled) return { allowed: true };
    const now = this.now();
    this.sweep(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.burst, updatedAt: now };
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.limit.perSecond);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.limit.perSecond)) };
  }

  /** Forgets buckets that are full again, so idle clients cost no memory. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 10_000) return;
    this.lastSweep = now;
    const fullAfterMs = (this.limit.burst / this.limit.perSecond) * 1000;
    for (const [key, bucket] of this.buckets) if (now - bucket.updatedAt > fullAfterMs) this.buckets.delete(key);
  }
}
