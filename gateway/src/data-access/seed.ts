import type { Knex } from '@rental/db';
import { ulid } from 'ulid';
import { hashApiKey } from '../domain/api-key';
import { KEY_PREFIX_LENGTH } from '../domain/key-format';

export interface PartnerIdentitySeed {
  id: string;
  name: string;
  contactEmail: string | null;
  apiKeys: { key: string; environment: string; roles: string[] }[];
}

/**
 * Loads partners and the hashes of their keys of this environment. Idempotent: a second load
 * of the same file changes no row. A partner's status and a key's revocation, expiry, id and
 * name are the partner administration's: a reload leaves them as they are.
 */
export async function seedPartnerIdentities(db: Knex, partners: PartnerIdentitySeed[], environment: string): Promise<{ partners: number; keys: number }> {
  let keys = 0;
  await db.transaction(async (trx) => {
    for (const partner of partners) {
      await trx('partners')
        .insert({ id: partner.id, name: partner.name, contact_email: partner.contactEmail })
        .onConflict('id')
        .merge(['name', 'contact_email']);
      for (const apiKey of partner.apiKeys.filter((k) => k.environment === environment)) {
        await trx('api_keys')
          .insert({
            key_hash: hashApiKey(apiKey.key),
            id: `key_${ulid()}`,
            partner_id: partner.id,
            environment,
            roles: apiKey.roles,
            name: apiKey.roles.includes('api_user') ? 'Seed key' : 'Seed key (read-only)',
            prefix: apiKey.key.slice(0, KEY_PREFIX_LENGTH),
            created_by_type: 'seed',
          })
          .onConflict('key_hash')
          .merge(['partner_id', 'environment', 'roles', 'prefix']);
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
