import { crc32 } from 'node:zlib';
import { Client } from 'pg';
import { gatewayGrpcAddressOf } from '@rental/config';
import { TypedClient, createGrpcClient, useInternalIdentity } from '@rental/grpc';
import { IdentityKeys } from '@rental/identity';
import { loadPartnerAccessPackage } from '@rental/proto';
import { ApiClient, waitFor } from '@rental/testkit';
import { ownPartner } from '../support/partners';
import { sharedStack } from '../support/shared-stack';

type Client_ = InstanceType<ReturnType<typeof loadPartnerAccessPackage>['PartnerAccessService']>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const operator = { type: 'operator', id: 'op-anna', name: 'Anna Approver' };
let client: TypedClient<Client_>;

beforeAll(() => {
  // The partner access service answers the back office and the portal only: the test plays the back office.
  useInternalIdentity('backoffice', new IdentityKeys(sharedStack().identitySecret));
  client = new TypedClient(createGrpcClient(loadPartnerAccessPackage().PartnerAccessService, gatewayGrpcAddressOf(sharedStack().portBase, {})), 10_000);
});
afterAll(() => client.close());

async function rpcError(call: Promise<unknown>): Promise<{ kind: string; code: string }> {
  try {
    await call;
  } catch (error) {
    const { kind, code } = error as { kind: string; code: string };
    return { kind, code };
  }
  throw new Error('the call succeeded');
}

async function gatewayRows<T>(sql: string, params: unknown[]): Promise<T[]> {
  const db = new Client({ connectionString: sharedStack().databaseUrl });
  await db.connect();
  try {
    return (await db.query(sql, params)).rows as T[];
  } finally {
    await db.end();
  }
}

function checksumOf(body: string): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let value = crc32(body);
  let digits = '';
  while (value > 0) {
    digits = alphabet[value % 62] + digits;
    value = Math.floor(value / 62);
  }
  return digits.padStart(6, '0');
}

describe('API keys made through the partner access service', () => {
  it('when a key is created, then it is shown once in the documented format, works at once, and the list shows its representation but never the key', async () => {
    const { partner } = await ownPartner();
    const created = await client.call(
      'CreateApiKey',
      { partnerId: partner.id, name: 'ERP connector', role: 'api_user', createdBy: operator },
      { partnerId: partner.id },
    );

    expect(created.key).toMatch(/^sbx_[A-Za-z0-9]{40}$/);
    expect(created.key.slice(-6)).toBe(checksumOf(created.key.slice(0, -6)));
    expect(created.apiKey).toEqual({
      id: expect.stringMatching(/^key_[0-9A-Z]{26}$/),
      name: 'ERP connector',
      environment: 'sandbox',
      role: 'api_user',
      prefix: created.key.slice(0, 12),
      createdAt: expect.stringMatching(ISO),
      createdBy: operator,
      lastUsedAt: '',
      expiresAt: '',
      revokedAt: '',
      status: 'active',
      revokeReason: '',
    });
    const call = await new ApiClient(sharedStack().gatewayUrl, created.key).get('/api/product-sectors');
    expect(call.status).toBe(200);

    const listed = await client.call('ListApiKeys', { partnerId: partner.id }, { partnerId: partner.id });
    expect(listed.apiKeys.map((key) => key.name)).toEqual(['ERP connector', 'Seed key (read-only)', 'Seed key']);
    expect(JSON.stringify(listed)).not.toContain(created.key);
    const [stored] = await gatewayRows<{ key_hash: string }>('SELECT key_hash FROM gateway.api_keys WHERE id = $1', [created.apiKey!.id]);
    expect(JSON.stringify(listed)).not.toContain(stored!.key_hash);
    const audit = await client.call('ListAudit', { partnerId: partner.id }, { partnerId: partner.id });
    expect(audit.entries[0]).toEqual({
      id: expect.any(String),
      at: expect.stringMatching(ISO),
      actor: operator,
      action: 'api_key.created',
      target: { type: 'api_key', id: created.apiKey!.id, name: 'ERP connector' },
      reason: '',
    });
  });

  it('when a key is revoked, then the gateway answers 401 api_key.revoked within moments, the audit names the reason, and revoking again changes nothing', async () => {
    const { partner, api } = await ownPartner();
    expect((await api.get('/api/product-sectors')).status).toBe(200);
    const [seedKey] = (await client.call('ListApiKeys', { partnerId: partner.id, statuses: ['active'] }, { partnerId: partner.id })).apiKeys.filter(
      (key) => key.role === 'api_user',
    );

    const revoked = await client.call(
      'RevokeApiKey',
      { partnerId: partner.id, keyId: seedKey!.id, reason: 'found on a paste site', actor: operator },
      { partnerId: partner.id },
    );
    const refused = await api.get('/api/product-sectors');

    expect(revoked).toEqual(
      expect.objectContaining({ id: seedKey!.id, status: 'revoked', revokedAt: expect.stringMatching(ISO), revokeReason: 'found on a paste site' }),
    );
    expect(refused.status).toBe(401);
    expect(refused.contentType).toBe('application/problem+json; charset=utf-8');
    expect(refused.json).toEqual(expect.objectContaining({ type: expect.stringMatching(/\/problems\/api_key\.revoked$/), status: 401 }));
    const again = await client.call('RevokeApiKey', { partnerId: partner.id, keyId: seedKey!.id, reason: 'twice', actor: operator }, { partnerId: partner.id });
    expect(again).toEqual(revoked);
    const audit = await client.call('ListAudit', { partnerId: partner.id }, { partnerId: partner.id });
    expect(audit.entries.filter((entry) => entry.action === 'api_key.revoked').map((entry) => entry.reason)).toEqual(['found on a paste site']);
  });

  it('when a key is rolled with no overlap, then the old key answers 401 api_key.expired and the new one works', async () => {
    const { partner, api } = await ownPartner();
    const [seedKey] = (await client.call('ListApiKeys', { partnerId: partner.id }, { partnerId: partner.id })).apiKeys.filter((key) => key.role === 'api_user');
    expect((await api.get('/api/product-sectors')).status).toBe(200);

    const rolled = await client.call(
      'RollApiKey',
      { partnerId: partner.id, keyId: seedKey!.id, overlapSeconds: 0, actor: operator },
      { partnerId: partner.id },
    );

    expect(rolled.apiKey).toEqual(expect.objectContaining({ name: seedKey!.name, role: 'api_user', status: 'active' }));
    const old = await api.get('/api/product-sectors');
    expect([old.status, old.json.type]).toEqual([401, expect.stringMatching(/api_key\.expired$/)]);
    expect((await api.withKey(rolled.key).get('/api/product-sectors')).status).toBe(200);
    const keys = (await client.call('ListApiKeys', { partnerId: partner.id, statuses: ['expired'] }, { partnerId: partner.id })).apiKeys;
    expect(keys.map((key) => key.id)).toEqual([seedKey!.id]);
    expect(
      await rpcError(client.call('RollApiKey', { partnerId: partner.id, keyId: seedKey!.id, overlapSeconds: 60, actor: operator }, { partnerId: partner.id })),
    ).toEqual({ kind: 'rule_violation', code: 'api_key.not_live' });
  });

  it('when a key is rolled with an overlap, then the old key keeps working until its new expiresAt, and an overlap over 7 days is refused', async () => {
    const { partner, api } = await ownPartner();
    const [seedKey] = (await client.call('ListApiKeys', { partnerId: partner.id }, { partnerId: partner.id })).apiKeys.filter((key) => key.role === 'api_user');
    expect(
      await rpcError(
        client.call('RollApiKey', { partnerId: partner.id, keyId: seedKey!.id, overlapSeconds: 604801, actor: operator }, { partnerId: partner.id }),
      ),
    ).toEqual({ kind: 'rule_violation', code: 'validation_failed' });

    const before = Date.now();
    await client.call('RollApiKey', { partnerId: partner.id, keyId: seedKey!.id, overlapSeconds: 3600, actor: operator }, { partnerId: partner.id });

    expect((await api.get('/api/product-sectors')).status).toBe(200);
    const [old] = (await client.call('ListApiKeys', { partnerId: partner.id, statuses: ['expiring'] }, { partnerId: partner.id })).apiKeys;
    expect(old!.id).toBe(seedKey!.id);
    expect(Math.abs(Date.parse(old!.expiresAt) - (before + 3_600_000))).toBeLessThan(5_000);
  });

  it("when another partner's key id is named, then it is NOT_FOUND and nothing changes", async () => {
    const mine = await ownPartner();
    const theirs = await ownPartner();
    const [theirKey] = (await client.call('ListApiKeys', { partnerId: theirs.partner.id }, { partnerId: theirs.partner.id })).apiKeys;

    expect(
      await rpcError(
        client.call('RevokeApiKey', { partnerId: mine.partner.id, keyId: theirKey!.id, reason: 'x', actor: operator }, { partnerId: mine.partner.id }),
      ),
    ).toEqual({ kind: 'not_found', code: 'api_key.not_found' });
    expect(
      await rpcError(
        client.call('RollApiKey', { partnerId: mine.partner.id, keyId: theirKey!.id, overlapSeconds: 0, actor: operator }, { partnerId: mine.partner.id }),
      ),
    ).toEqual({ kind: 'not_found', code: 'api_key.not_found' });
    expect((await theirs.api.get('/api/product-sectors')).status).toBe(200);
  });

  it('when a partner has 10 live keys, then the 11th is refused with api_key.limit_reached', async () => {
    const { partner } = await ownPartner();
    for (let index = 0; index < 8; index += 1) {
      await client.call('CreateApiKey', { partnerId: partner.id, name: `key ${index}`, role: 'readonly', createdBy: operator }, { partnerId: partner.id });
    }
    expect(
      await rpcError(
        client.call('CreateApiKey', { partnerId: partner.id, name: 'eleventh', role: 'readonly', createdBy: operator }, { partnerId: partner.id }),
      ),
    ).toEqual({ kind: 'rule_violation', code: 'api_key.limit_reached' });
    const [{ count }] = await gatewayRows<{ count: string }>('SELECT count(*) FROM gateway.api_keys WHERE partner_id = $1', [partner.id]);
    expect(count).toBe('10');
  });

  it('when a key has a bad name, role or expiry, then each is a violation naming the field', async () => {
    const { partner } = await ownPartner();
    const past = new Date(Date.now() - 1000).toISOString();
    try {
      await client.call('CreateApiKey', { partnerId: partner.id, name: '', role: 'owner', expiresAt: past, createdBy: operator }, { partnerId: partner.id });
      throw new Error('created');
    } catch (error) {
      expect((error as { violations: { propertyPath: string }[] }).violations.map((v) => v.propertyPath)).toEqual(['name', 'role', 'expiresAt']);
    }
  });

  it('when a key is used, then its lastUsedAt is written by the next flush, not per request', async () => {
    const { partner, api } = await ownPartner();
    await api.get('/api/product-sectors');
    const key = await waitFor(
      async () => {
        const keys = (await client.call('ListApiKeys', { partnerId: partner.id }, { partnerId: partner.id })).apiKeys;
        return keys.find((candidate) => candidate.lastUsedAt !== '');
      },
      { timeoutMs: 10_000, what: 'the last use to be flushed' },
    );
    expect(key.role).toBe('api_user');
    expect(key.lastUsedAt).toMatch(ISO);
  });
});
