import type { Knex } from '@rental/db';
import type { ApiKeyStore, AuthenticatedPartner } from '../domain/ports';

export class ApiKeyRepository implements ApiKeyStore {
  constructor(private readonly db: Knex) {}

  async findActiveKey(keyHash: string, environment: string): Promise<AuthenticatedPartner | undefined> {
    const row = await this.db('api_keys')
      .select('partner_id', 'environment', 'roles')
      .where({ key_hash: keyHash, environment })
      .whereNull('revoked_at')
      .first();
    return row ? { partnerId: row.partner_id, environment: row.environment, roles: row.roles } : undefined;
  }
}
