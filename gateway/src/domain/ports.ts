// The gateway's ports: what data-access implements for the domain.

export interface AuthenticatedPartner {
  partnerId: string;
  environment: string;
  roles: string[];
}

export interface ApiKeyStore {
  /** The partner of an active key of this environment, or undefined. */
  findActiveKey(keyHash: string, environment: string): Promise<AuthenticatedPartner | undefined>;
}

/**
 * A budget of requests per key (an API key's hash, or a client address for attempts without a
 * valid key): `burst` requests per window of burst / perSecond seconds. The budgets live in
 * Postgres (data-access/shared-rate-limiter.ts), so every gateway replica draws on the same one.
 */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  take(key: string): Promise<RateDecision>;
}
