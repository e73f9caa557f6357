import { ExpiringMap } from '@rental/expiring-map';

export interface SignInGuardOptions {
  /** Whether a password matches a stored hash (a deliberately slow hash: scrypt). */
  verify(password: string, storedHash: string): Promise<boolean>;
  /** A hash of a password nobody knows, checked for an unknown e-mail so it takes as long as a known one. */
  dummyHash: Promise<string>;
  /** Failed attempts in a row that lock an e-mail. */
  maxFailures?: number;
  /** How long a lock lasts, and how long failures are remembered. */
  lockMs?: number;
  now?: () => number;
}

export type SignInOutcome = 'signed_in' | 'wrong' | 'locked';

/** Failures in a row of one e-mail, and the end of its lock. */
interface Attempts {
  failures: number;
  lockedUntil: number;
}

export const SIGN_IN_MAX_FAILURES = 5;
export const SIGN_IN_LOCK_MS = 15 * 60_000;

/**
 * The dev identity provider's password check. After `maxFailures` wrong passwords in a row an
 * e-mail is locked for `lockMs`: no password, not even the right one, signs in meanwhile. An
 * unknown e-mail is checked against a dummy hash, so it costs the same time as a known one and
 * it is locked the same way: neither the answer, its time nor the lock tells whether an account
 * exists. In memory: one process, and a restart forgets locks (a development tool).
 */
export class SignInGuard {
  private readonly attempts: ExpiringMap<string, Attempts>;
  private readonly maxFailures: number;
  private readonly lockMs: number;
  private readonly now: () => number;

  constructor(private readonly options: SignInGuardOptions) {
    this.maxFailures = options.maxFailures ?? SIGN_IN_MAX_FAILURES;
    this.lockMs = options.lockMs ?? SIGN_IN_LOCK_MS;
    this.now = options.now ?? Date.now;
    // Bounded, so a flood of made-up e-mails cannot grow it without end.
    this.attempts = new ExpiringMap({ ttlMs: this.lockMs, maxEntries: 100_000, now: this.now });
  }

  /** Checks `password` for the account of `email` (its stored hash, or undefined when there is none). */
  async check(email: string, password: string, storedHash: string | undefined): Promise<SignInOutcome> {
    const key = email.trim().toLowerCase();
    const known = this.attempts.get(key);
    if (known && known.lockedUntil > this.now()) return 'locked';
    const matches = await this.options.verify(password, storedHash ?? (await this.options.dummyHash));
    if (matches && storedHash !== undefined) {
      this.attempts.delete(key);
      return 'signed_in';
    }
    const failures = (known?.failures ?? 0) + 1;
    if (failures >= this.maxFailures) {
      this.attempts.set(key, { failures: 0, lockedUntil: this.now() + this.lockMs });
      return 'locked';
    }
    this.attempts.set(key, { failures, lockedUntil: 0 });
    return 'wrong';
  }

  /** Whole minutes until a locked e-mail may try again (at least 1). */
  minutesLocked(email: string): number {
    const lockedUntil = this.attempts.get(email.trim().toLowerCase())?.lockedUntil ?? 0;
    return Math.max(1, Math.ceil((lockedUntil - this.now()) / 60_000));
  }
}
