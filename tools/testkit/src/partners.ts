import { randomBytes } from 'node:crypto';
import { DEMO_SEED_FILE, SeedFile, readSeedFile } from '@rental/stack/fixture';

export interface TestPartner {
  id: string;
  /** As seeded: what pricing's profile, mails and the case history name it. */
  name: string;
  /** Sandbox (or production) key with the api_user role. */
  key: string;
  /** Key without roles. */
  readOnlyKey: string;
  /** Its people in the dev identity provider: the template's users under new ids, e-mails and clients. */
  users: PartnerSeed['users'];
}

export interface StackAddress {
  environment: string;
  /** The stack's control port, which takes test partners (a testkit stack's does). */
  controlUrl: string;
}

type PartnerSeed = SeedFile['partners'][number];

let demoFixture: SeedFile | undefined;
/** The project's fixture, read and checked once per process: tests ask for partners and keys of it many times. */
function fixture(): SeedFile {
  demoFixture ??= readSeedFile(DEMO_SEED_FILE);
  return demoFixture;
}

/**
 * A fresh partner with the conditions of a fixture partner (acme by default) and new keys, so a
 * test owns its data and cannot be disturbed by another test on the same stack.
 */
export async function createTestPartner(
  stack: StackAddress,
  options: { like?: string; overrides?: Partial<PartnerSeed>; hubs?: SeedFile['distributionHubs'] } = {},
): Promise<TestPartner> {
  const template = fixture().partners.find((partner) => partner.id === (options.like ?? 'acme'));
  if (!template) throw new Error(`no fixture partner ${options.like}`);
  const suffix = randomBytes(5).toString('hex');
  const id = `${template.id}-${suffix}`;
  const key = `test_${id}_${randomBytes(12).toString('hex')}`;
  const readOnlyKey = `test_ro_${id}_${randomBytes(12).toString('hex')}`;
  // The template's users belong to the template: the test partner gets its own (same names and roles).
  const users = template.users.map((user) => ({
    ...user,
    id: `${user.id}-${suffix}`,
    email: user.email.replace('@', `+${suffix}@`),
    clientId: `${user.clientId}-${suffix}`,
    clientSecret: `${user.clientSecret}_${suffix}`,
  }));
  const partner: PartnerSeed = {
    ...template,
    ...options.overrides,
    id,
    name: `${template.name} (test ${suffix})`,
    users,
    apiKeys: [
      { key, environment: stack.environment as 'sandbox', roles: ['api_user'] },
      { key: readOnlyKey, environment: stack.environment as 'sandbox', roles: [] },
    ],
  };
  const seed: SeedFile = { ...fixture(), distributionHubs: [...fixture().distributionHubs, ...(options.hubs ?? [])], partners: [partner] };
  // The stack's own process seeds it: a test process need not load every service's code for that.
  const response = await fetch(`${stack.controlUrl}/partners`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(seed) });
  if (response.status !== 204) throw new Error(`the stack refused test partner ${id}: ${response.status} ${await response.text()}`);
  return { id, name: partner.name, key, readOnlyKey, users };
}

export function fixturePartnerKey(partnerId: string, environment = 'sandbox', role: 'api_user' | 'none' = 'api_user'): string {
  const partner = fixture().partners.find((p) => p.id === partnerId);
  const key = partner?.apiKeys.find((k) => k.environment === environment && (role === 'api_user' ? k.roles.includes('api_user') : k.roles.length === 0));
  if (!key) throw new Error(`fixture has no ${environment} ${role} key for ${partnerId}`);
  return key.key;
}
