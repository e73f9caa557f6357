import { createHash } from 'node:crypto';
import type { ApiKeyStore, AuthenticatedPartner } from './ports';

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

// Keys are printable ASCII without spaces; anything else cannot be a key and is not looked up.
const PLAUSIBLE_KEY = /^[\x21-\x7e]{16,200}$/;

/**
 * Resolves an API key to its partner. Successful lookups are cached for a short time, so the
 * hot path does not touch Postgres; unknown keys are never cached, so a newly loaded key
 * works at once.
 */
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, { partner: AuthenticatedPartner; expiresAt: number }>();

  constructor(
    private readonly store: ApiKeyStore,
    private readonly environment: string,
    private readonly cacheMs: number,
    private readonly maxCacheEntries = 10_000,
  ) {}

  async authenticate(key: string | undefined): Promise<AuthenticatedPartner | undefined> {
    if (!key || !PLAUSIBLE_KEY.test(key)) return undefined;
    const hash = hashApiKey(key);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.partner;
    const partner = await this.store.findActiveKey(hash, this.environment);
    if (!partner) {
      this.cache.delete(hash);
      return undefined;
    }
    if (this.cache.size >= this.maxCacheEntries) this.cache.clear();
    this.cache.set(hash, { partner, expiresAt: now + this.cacheMs });
    return partner;
  }
}
