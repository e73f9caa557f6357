import { createHash } from 'node:crypto';
import { ExpiringMap } from '@rental/expiring-map';
import type { ApiKeyStore, AuthenticatedPartner } from './ports';

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

/**
 * Resolves an API key to its partner. Successful lookups are cached for a short time, so the
 * hot path does not touch Postgres; unknown keys are never cached, so a newly loaded key
 * works at once.
 */
export class ApiKeyAuthenticator {
  private readonly cache: ExpiringMap<string, AuthenticatedPartner>;

  constructor(
    private readonly store: ApiKeyStore,
    private readonly environment: string,
    cacheMs: number,
    maxCacheEntries = 10_000,
  ) {
    this.cache = new ExpiringMap({ ttlMs: cacheMs, maxEntries: maxCacheEntries });
  }

  async authenticate(key: string | undefined): Promise<AuthenticatedKey | undefined> {
    if (!key || !PLAUSIBLE_KEY.test(key)) return undefined;
    const keyHash = hashApiKey(key);
    const cached = this.cache.get(keyHash);
    if (cached) return { partner: cached, keyHash };
    const partner = await this.store.findActiveKey(keyHash, this.environment);
    if (!partner) {
      this.cache.delete(keyHash);
      return undefined;
    }
    this.cache.set(keyHash, partner);
    return { partner, keyHash };
  }
}
