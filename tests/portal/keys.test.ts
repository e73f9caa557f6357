import { crc32 } from 'node:zlib';
import { ApiClient, waitFor } from '@rental/testkit';
import { expectProblem, expectViolations, portalPartner, sharedStack, within } from './support/kit';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The checksum secret scanners recompute: CRC32 of everything before it, base 62, six characters. */
function checksumOf(text: string): string {
  let value = crc32(Buffer.from(text, 'utf8'));
  let digits = '';
  while (value > 0) {
    digits = BASE62[value % 62] + digits;
    value = Math.floor(value / 62);
  }
  return digits.padStart(6, '0');
}

const keyShape = {
  id: expect.any(String),
  environment: 'sandbox',
  prefix: expect.any(String),
  createdAt: expect.any(String),
  lastUsedAt: null,
  revokedAt: null,
};

describe('portal: API keys', () => {
  it('when a developer creates a key in the sandbox, then 201 shows it once in the documented format, it works at once and the list never shows it', async () => {
    const { developer, viewer, partner } = await portalPartner();
    const created = await developer.post('/portal/v1/api-keys', { name: 'Shop backend', role: 'api_user' });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      ...keyShape,
      name: 'Shop backend',
      role: 'api_user',
      createdBy: { type: 'partner_user', id: userId(partner, 'developer'), name: 'Dieter Developer' },
      expiresAt: null,
      status: 'active',
      key: expect.stringMatching(/^sbx_[A-Za-z0-9]{40}$/),
    });
    const key = created.json.key as string;
    expect(key.slice(-6)).toBe(checksumOf(key.slice(0, -6)));
    expect(created.json.prefix).toBe(key.slice(0, 12));

    expect((await new ApiClient(sharedStack().gatewayUrl, key).get('/api/product-sectors')).status).toBe(200);

    const list = await viewer.get('/portal/v1/api-keys');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(key);
    expect(list.json[0]).toEqual(expect.objectContaining({ id: created.json.id, name: 'Shop backend', status: 'active' }));
    expect(list.json[0]).not.toHaveProperty('key');
    // The seed file's keys are listed too, as the seed made them.
    expect(
      list.json
        .filter((entry: { createdBy: { type: string } }) => entry.createdBy.type === 'seed')
        .map((entry: { role: string }) => entry.role)
        .sort(),
    ).toEqual(['api_user', 'readonly']);
  });

  it('when a developer revokes a key, then the gateway answers 401 api_key.revoked within 2 s, and revoking again answers 200 unchanged', async () => {
    const { developer } = await portalPartner();
    const created = (await developer.post('/portal/v1/api-keys', { name: 'leaked', role: 'api_user' })).json;
    const api = new ApiClient(sharedStack().gatewayUrl, created.key);
    expect((await api.get('/api/product-sectors')).status).toBe(200);
    // The gateway records a key's last use in batches (every 2 s here). Once that use is recorded,
    // the revocation's answer and the second one describe the same key.
    await waitFor(
      async () => ((await developer.get('/portal/v1/api-keys')).json.find((key: { id: string }) => key.id === created.id)?.lastUsedAt ? true : undefined),
      { what: "the key's last use to be recorded" },
    );

    const revoked = await developer.post(`/portal/v1/api-keys/${created.id}/revoke`);
    expect([revoked.status, revoked.json.status, typeof revoked.json.revokedAt]).toEqual([200, 'revoked', 'string']);
    let last = await api.get('/api/product-sectors');
    const took = await within(2000, async () => {
      last = await api.get('/api/product-sectors');
      return last.status === 401;
    });
    expect(took).not.toBeNull();
    expectProblem(last, 401, 'api_key.revoked');

    const again = await developer.post(`/portal/v1/api-keys/${created.id}/revoke`);
    expect([again.status, again.json]).toEqual([200, revoked.json]);
  });

  it('when a developer rolls a key, then a new key with the same name and role works and the old one expires after expiresIn', async () => {
    const { developer } = await portalPartner();
    const old = (await developer.post('/portal/v1/api-keys', { name: 'worker', role: 'readonly' })).json;
    const before = Date.now();
    const rolled = await developer.post(`/portal/v1/api-keys/${old.id}/roll`, { expiresIn: 3600 });
    expect(rolled.status).toBe(201);
    expect(rolled.json).toEqual(expect.objectContaining({ name: 'worker', role: 'readonly', status: 'active', key: expect.stringMatching(/^sbx_/) }));
    expect(rolled.json.id).not.toBe(old.id);
    const oldNow = (await developer.get('/portal/v1/api-keys')).json.find((entry: { id: string }) => entry.id === old.id);
    expect(oldNow.status).toBe('expiring');
    expect(Math.abs(Date.parse(oldNow.expiresAt) - (before + 3_600_000))).toBeLessThan(60_000);
    expect((await new ApiClient(sharedStack().gatewayUrl, rolled.json.key).get('/api/product-sectors')).status).toBe(200);
    expect((await new ApiClient(sharedStack().gatewayUrl, old.key).get('/api/product-sectors')).status).toBe(200);

    const now = await developer.post(`/portal/v1/api-keys/${rolled.json.id}/roll`, { expiresIn: 0 });
    expect(now.status).toBe(201);
    const expired = await within(2000, async () => (await new ApiClient(sharedStack().gatewayUrl, rolled.json.key).get('/api/product-sectors')).status === 401);
    expect(expired).not.toBeNull();
    expectProblem(await developer.post(`/portal/v1/api-keys/${rolled.json.id}/roll`, {}), 422);
  });

  it('when input is bad, then 422 naming the field and nothing is created', async () => {
    const { developer } = await portalPartner();
    const count = async () => (await developer.get('/portal/v1/api-keys')).json.length;
    const before = await count();
    expectViolations(await developer.post('/portal/v1/api-keys', { name: '', role: 'api_user' }), [['name', 'validation.too_small']]);
    expectViolations(await developer.post('/portal/v1/api-keys', { name: 'x', role: 'owner' }), [['role', 'validation.choice']]);
    expectViolations(await developer.post('/portal/v1/api-keys', { name: 'x'.repeat(101), role: 'api_user' }), [['name', 'validation.too_big']]);
    const past = await developer.post('/portal/v1/api-keys', { name: 'x', role: 'api_user', expiresAt: '2020-01-01T00:00:00Z' });
    expectProblem(past, 422);
    expect(past.json.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['expiresAt']);
    const far = await developer.post('/portal/v1/api-keys', { name: 'x', role: 'api_user', expiresAt: new Date(Date.now() + 367 * 86_400_000).toISOString() });
    expect(far.json.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['expiresAt']);
    expectViolations(await developer.post('/portal/v1/api-keys/key_x/roll', { expiresIn: 604_801 }), [['expiresIn', 'validation.too_big']]);
    expect(await count()).toBe(before);
  });

  it('when a partner has 10 keys that are neither expired nor revoked, then the 11th is 422', async () => {
    const { developer } = await portalPartner();
    const live = (await developer.get('/portal/v1/api-keys?status=active,expiring')).json.length;
    for (let index = live; index < 10; index += 1)
      expect((await developer.post('/portal/v1/api-keys', { name: `k${index}`, role: 'readonly' })).status).toBe(201);
    expectProblem(await developer.post('/portal/v1/api-keys', { name: 'eleventh', role: 'readonly' }), 422);
    expect((await developer.get('/portal/v1/api-keys?status=active,expiring')).json).toHaveLength(10);
  });

  it("when another partner's key id is named, then 404 and the key keeps working", async () => {
    const first = await portalPartner();
    const second = await portalPartner();
    const theirs = (await second.developer.post('/portal/v1/api-keys', { name: 'theirs', role: 'api_user' })).json;
    expectProblem(await first.developer.post(`/portal/v1/api-keys/${theirs.id}/revoke`), 404);
    expectProblem(await first.developer.post(`/portal/v1/api-keys/${theirs.id}/roll`, {}), 404);
    expect((await new ApiClient(sharedStack().gatewayUrl, theirs.key).get('/api/product-sectors')).status).toBe(200);
  });

  it('when keys change, then the audit names each change with its actor and the target, newest first, and never a key', async () => {
    const { developer, viewer, partner } = await portalPartner();
    const created = (await developer.post('/portal/v1/api-keys', { name: 'audited', role: 'api_user' })).json;
    const rolled = (await developer.post(`/portal/v1/api-keys/${created.id}/roll`, {})).json;
    await developer.post(`/portal/v1/api-keys/${rolled.id}/revoke`);
    const audit = await viewer.get('/portal/v1/audit');
    expect(audit.status).toBe(200);
    const actor = { type: 'partner_user', id: userId(partner, 'developer'), name: 'Dieter Developer' };
    expect(
      audit.json.slice(0, 3).map((entry: { action: string; actor: unknown; target: { type: string } }) => [entry.action, entry.actor, entry.target.type]),
    ).toEqual([
      ['api_key.revoked', actor, 'api_key'],
      ['api_key.rolled', actor, 'api_key'],
      ['api_key.created', actor, 'api_key'],
    ]);
    expect(audit.text).not.toContain(created.key);
    expect(audit.text).not.toContain(rolled.key);
  });
});

function userId(partner: { users: { id: string; roles: string[] }[] }, role: string): string {
  return partner.users.find((user) => user.roles.at(-1) === role)?.id ?? '';
}
