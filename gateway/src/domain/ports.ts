// The gateway's ports: what data-access implements for the domain.

export interface AuthenticatedPartner {
  partnerId: string;
  environment: string;
  roles: string[];
}

/** What the gateway knows of a key of this environment: its partner and whether it may be used. */
export interface KeyState {
  partner: AuthenticatedPartner;
  revoked: boolean;
  /** epoch milliseconds; null: never */
  expiresAt: number | null;
  partnerSuspended: boolean;
}

export interface ApiKeyStore {
  /** A key of this environment (revoked and expired ones included), or undefined. */
  findKey(keyHash: string, environment: string): Promise<KeyState | undefined>;
  /** Stores when keys were last used (each only moves forward). */
  recordLastUse(uses: { keyHash: string; at: Date }[]): Promise<void>;
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
