import { createHash } from 'node:crypto';
import { ExpiringMap } from '@rental/expiring-map';
import type { ApiKeyStore, AuthenticatedPartner, KeyState } from './ports';

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

// Keys are printable ASCII without spaces; anything else cannot be a key and is not looked up.
const PLAUSIBLE_KEY = /^[\x21-\x7e]{16,200}$/;

/** A partner whose key was accepted, with the key's hash: what the key's own limits are counted by. */
export interface AuthenticatedKey {
  partner: AuthenticatedPartner;
  keyHash: string;
}

/** Why a known key is refused: each has its own problem type (PARTNER-PORTAL.md section 2). */
export type KeyRefusal = 'api_key.revoked' | 'api_key.expired' | 'partner.suspended';

export type Authentication = { accepted: AuthenticatedKey } | { refused: KeyRefusal } | undefined;

export function refusalOf(state: KeyState, now: number): KeyRefusal | undefined {
  if (state.revoked) return 'api_key.revoked';
  if (state.expiresAt !== null && state.expiresAt <= now) return 'api_key.expired';
  if (state.partnerSuspended) return 'partner.suspended';
  return undefined;
}

/**
 * Resolves an API key to its partner. Known keys are cached (revoked, expired and suspended ones
 * too, with why they are refused), so the hot path does not touch Postgres; unknown keys are
 * never cached, so a new key works at once. The cache is emptied whenever a change of access
 * commits anywhere (Postgres NOTIFY, `forgetAll`) and is not used while that notification
 * cannot arrive (`useCache(false)`), so a revocation or suspension reaches every replica within
 * a moment whatever the cache's lifetime; a key's expiry is checked on every request.
 */
export class ApiKeyAuthenticator {
  private readonly cache: ExpiringMap<string, KeyState>;
  private cacheUsable = false;

  constructor(
    private readonly store: ApiKeyStore,
    private readonly environment: string,
    cacheMs: number,
    private readonly onAccepted: (keyHash: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
    maxCacheEntries = 10_000,
  ) {
    this.cache = new ExpiringMap({ ttlMs: cacheMs, maxEntries: maxCacheEntries });
  }

  useCache(usable: boolean): void {
    this.cacheUsable = usable;
    this.cache.clear();
  }

  forgetAll(): void {
    this.cache.clear();
  }

  async authenticate(key: string | undefined): Promise<Authentication> {
    if (!key || !PLAUSIBLE_KEY.test(key)) return undefined;
    const keyHash = hashApiKey(key);
    let state = this.cacheUsable ? this.cache.get(keyHash) : undefined;
    if (!state) {
      state = await this.store.findKey(keyHash, this.environment);
      if (!state) return undefined;
      if (this.cacheUsable) this.cache.set(keyHash, state);
    }
    const refusal = refusalOf(state, this.now());
    if (refusal) return { refused: refusal };
    this.onAccepted(keyHash);
    return { accepted: { partner: state.partner, keyHash } };
  }
}
