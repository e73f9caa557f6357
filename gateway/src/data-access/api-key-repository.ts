import type { Knex } from '@rental/db';
import type { ApiKeyStore, KeyState } from '../domain/ports';

export class ApiKeyRepository implements ApiKeyStore {
  constructor(private readonly db: Knex) {}

  async findKey(keyHash: string, environment: string): Promise<KeyState | undefined> {
    const row = await this.db('api_keys as k')
      .join('partners as p', 'p.id', 'k.partner_id')
      .select('k.partner_id', 'k.environment', 'k.roles', 'k.revoked_at', 'k.expires_at', 'p.status')
      .where({ 'k.key_hash': keyHash, 'k.environment': environment })
      .first();
    if (!row) return undefined;
    return {
      partner: { partnerId: row.partner_id, environment: row.environment, roles: row.roles },
      revoked: row.revoked_at !== null,
      expiresAt: row.expires_at ? row.expires_at.getTime() : null,
      partnerSuspended: row.status === 'suspended',
    };
  }

  async recordLastUse(uses: { keyHash: string; at: Date }[]): Promise<void> {
    if (!uses.length) return;
    // One statement for the whole batch; GREATEST keeps a later use another replica wrote.
    await this.db.raw(
      `UPDATE api_keys AS k SET last_used_at = GREATEST(k.last_used_at, u.at)
       FROM unnest(?::text[], ?::timestamptz[]) AS u(key_hash, at)
       WHERE k.key_hash = u.key_hash`,
      [uses.map((use) => use.keyHash), uses.map((use) => use.at.toISOString())],
    );
  }
}
