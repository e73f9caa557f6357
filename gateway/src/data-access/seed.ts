import type { Knex } from '@rental/db';
import { hashApiKey } from '../domain/api-key';

export interface PartnerIdentitySeed {
  id: string;
  name: string;
  apiKeys: { key: string; environment: string; roles: string[] }[];
}

/**
 * Loads partners and the hashes of their keys of this environment. Idempotent: a second load
 * of the same file changes no row.
 */
export async function seedPartnerIdentities(db: Knex, partners: PartnerIdentitySeed[], environment: string): Promise<{ partners: number; keys: number }> {
  let keys = 0;
  await db.transaction(async (trx) => {
    for (const partner of partners) {
      await trx('partners').insert({ id: partner.id, name: partner.name }).onConflict('id').merge(['name']);
      for (const apiKey of partner.apiKeys.filter((k) => k.environment === environment)) {
        await trx('api_keys')
          .insert({ key_hash: hashApiKey(apiKey.key), partner_id: partner.id, environment, roles: apiKey.roles })
          .onConflict('key_hash')
          .merge(['partner_id', 'environment', 'roles']);
        keys += 1;
      }
    }
  });
  return { partners: partners.length, keys };
}

export async function countPartners(db: Knex): Promise<number> {
  const [{ count }] = await db('partners').count<{ count: string }[]>({ count: '*' });
  return Number(count);
}
