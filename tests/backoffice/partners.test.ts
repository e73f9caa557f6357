import { DEMO_SEED_FILE, readSeedFile } from '@rental/stack/fixture';
import { waitFor } from '@rental/testkit';
import { ownPartner } from '../support/partners';
import { Ops, expectProblem, operatorWith } from './support/kit';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const acme = readSeedFile(DEMO_SEED_FILE).partners.find((partner) => partner.id === 'acme')!;
// A program's token (client credentials) names the operator by its client id, as the case history does.
const anna = operatorWith('approver');

describe('partners in the back office', () => {
  it('when a viewer lists partners by a part of the id, then each comes with status, live keys and last use, and status filters', async () => {
    const { partner, api } = await ownPartner();
    const viewer = await Ops.as('viewer');

    const listed = await viewer.get(`/ops/v1/partners?q=${partner.id.slice(-10)}`);

    expect(listed.status).toBe(200);
    expect(listed.json).toEqual([
      {
        id: partner.id,
        name: expect.stringContaining(acme.name),
        contactEmail: acme.contactEmail,
        financingPartner: acme.financingPartner,
        status: 'active',
        activeKeys: 2,
        lastUsedAt: null,
        suspendedAt: null,
        suspensionReason: null,
      },
    ]);
    expect((await viewer.get(`/ops/v1/partners?q=${partner.id}&status=suspended`)).json).toEqual([]);
    await api.get('/api/product-sectors');
    const used = await waitFor(async () => (await viewer.get(`/ops/v1/partners?q=${partner.id}`)).json[0].lastUsedAt ?? undefined, {
      timeoutMs: 10_000,
      what: "the key's last use",
    });
    expect(used).toMatch(ISO);
    expectProblem(await viewer.get('/ops/v1/partners?status=gone'), 400);
  });

  it("when a viewer opens a partner, then its conditions are in the seed file's shape and its keys are representations without the key", async () => {
    const { partner } = await ownPartner();
    const viewer = await Ops.as('viewer');

    const shown = await viewer.get(`/ops/v1/partners/${partner.id}`);

    expect(shown.status).toBe(200);
    const { id: _id, name: _name, contactEmail: _contact, apiKeys: _keys, users: _users, ...conditions } = acme as typeof acme & { users?: unknown };
    expect(shown.json.conditions).toEqual(conditions);
    expect(shown.json.apiKeys).toEqual([
      expect.objectContaining({
        name: 'Seed key (read-only)',
        role: 'readonly',
        status: 'active',
        createdBy: { type: 'seed', id: null, name: null },
        prefix: partner.readOnlyKey.slice(0, 12),
      }),
      expect.objectContaining({
        name: 'Seed key',
        role: 'api_user',
        status: 'active',
        environment: 'sandbox',
        prefix: partner.key.slice(0, 12),
        createdAt: expect.stringMatching(ISO),
        expiresAt: null,
        revokedAt: null,
      }),
    ]);
    expect(shown.text).not.toContain(partner.key);
    expect(shown.text).not.toContain(partner.readOnlyKey);
    expectProblem(await viewer.get('/ops/v1/partners/nobody-here'), 404);
  });

  it('when a viewer or reviewer tries a change, then it is 403 before anything is read, and without a token 401', async () => {
    const { partner, api } = await ownPartner();
    for (const role of ['viewer', 'reviewer'] as const) {
      const ops = await Ops.as(role);
      expectProblem(await ops.post(`/ops/v1/partners/${partner.id}/suspend`, { reason: 'test' }), 403, 'ops.role_required');
      expectProblem(await ops.post('/ops/v1/partners/nobody-here/api-keys', {}), 403, 'ops.role_required');
    }
    expect((await new Ops(null).get('/ops/v1/partners')).status).toBe(401);
    expect((await api.get('/api/product-sectors')).status).toBe(200);
  });

  it('when an approver suspends a partner, then every key answers 401 partner.suspended, a second suspension is 422, and reactivation brings the keys back; both audited with the reason', async () => {
    const { partner, api } = await ownPartner();
    const approver = await Ops.as('approver');
    const readOnly = api.withKey(partner.readOnlyKey);

    const suspended = await approver.post(`/ops/v1/partners/${partner.id}/suspend`, { reason: 'unpaid invoices' });
    const refused = [await api.get('/api/product-sectors'), await readOnly.get('/api/product-sectors')];

    expect(suspended.status).toBe(200);
    expect(suspended.json).toEqual(
      expect.objectContaining({ id: partner.id, status: 'suspended', suspendedAt: expect.stringMatching(ISO), suspensionReason: 'unpaid invoices' }),
    );
    for (const response of refused) {
      expect(response.status).toBe(401);
      expect(response.json.type).toMatch(/\/problems\/partner\.suspended$/);
    }
    expectProblem(await approver.post(`/ops/v1/partners/${partner.id}/suspend`, { reason: 'again' }), 422, 'partner.already_suspended');

    const reactivated = await approver.post(`/ops/v1/partners/${partner.id}/reactivate`, { reason: 'paid' });
    expect([reactivated.status, reactivated.json.status, reactivated.json.suspendedAt]).toEqual([200, 'active', null]);
    expect((await api.get('/api/product-sectors')).status).toBe(200);
    expectProblem(await approver.post(`/ops/v1/partners/${partner.id}/reactivate`, { reason: 'twice' }), 422, 'partner.not_suspended');

    const audit = await approver.get(`/ops/v1/partners/${partner.id}/audit`);
    expect(audit.json.map((entry: { action: string; reason: string; actor: unknown }) => [entry.action, entry.reason, entry.actor])).toEqual([
      ['partner.reactivated', 'paid', { type: 'operator', id: anna.id, name: anna.name }],
      ['partner.suspended', 'unpaid invoices', { type: 'operator', id: anna.id, name: anna.name }],
    ]);
  });

  it('when an approver creates a key, then it is shown once with createdBy the operator and works at once', async () => {
    const { partner, api } = await ownPartner();
    const approver = await Ops.as('approver');

    const created = await approver.post(`/ops/v1/partners/${partner.id}/api-keys`, { name: 'Onboarding key', role: 'api_user' });

    expect(created.status).toBe(201);
    expect(created.json).toEqual(
      expect.objectContaining({
        name: 'Onboarding key',
        role: 'api_user',
        status: 'active',
        createdBy: { type: 'operator', id: anna.id, name: anna.name },
        key: expect.stringMatching(/^sbx_[A-Za-z0-9]{40}$/),
      }),
    );
    expect((await api.withKey(created.json.key).get('/api/product-sectors')).status).toBe(200);
    const shown = await approver.get(`/ops/v1/partners/${partner.id}`);
    expect(shown.json.apiKeys[0]).toEqual(expect.objectContaining({ id: created.json.id, prefix: created.json.key.slice(0, 12) }));
    expect(shown.text).not.toContain(created.json.key);
  });

  it("when an approver revokes a leaked key, then it answers 401 api_key.revoked, the audit keeps operator and reason, and another partner's key id is 404", async () => {
    const { partner, api } = await ownPartner();
    const other = await ownPartner();
    const approver = await Ops.as('approver');
    const [otherKey] = (await approver.get(`/ops/v1/partners/${other.partner.id}`)).json.apiKeys;
    const key = (await approver.get(`/ops/v1/partners/${partner.id}`)).json.apiKeys.find((candidate: { role: string }) => candidate.role === 'api_user');

    expectProblem(await approver.post(`/ops/v1/partners/${partner.id}/api-keys/${otherKey.id}/revoke`, { reason: 'wrong partner' }), 404, 'api_key.not_found');
    const revoked = await approver.post(`/ops/v1/partners/${partner.id}/api-keys/${key.id}/revoke`, { reason: 'found on a paste site' });

    expect(revoked.status).toBe(200);
    expect(revoked.json).toEqual(
      expect.objectContaining({ id: key.id, status: 'revoked', revokedAt: expect.stringMatching(ISO), revokeReason: 'found on a paste site' }),
    );
    const refused = await api.get('/api/product-sectors');
    expect([refused.status, refused.json.type]).toEqual([401, expect.stringMatching(/\/problems\/api_key\.revoked$/)]);
    expect((await other.api.get('/api/product-sectors')).status).toBe(200);
    const [entry] = (await approver.get(`/ops/v1/partners/${partner.id}/audit`)).json;
    expect(entry).toEqual({
      id: expect.any(String),
      at: expect.stringMatching(ISO),
      actor: { type: 'operator', id: anna.id, name: anna.name },
      action: 'api_key.revoked',
      target: { type: 'api_key', id: key.id, name: 'Seed key' },
      reason: 'found on a paste site',
    });
  });

  it('when a body is bad, then it is 422 naming the field and nothing changes', async () => {
    const { partner, api } = await ownPartner();
    const approver = await Ops.as('approver');

    const noReason = await approver.post(`/ops/v1/partners/${partner.id}/suspend`, {});
    const badKey = await approver.post(`/ops/v1/partners/${partner.id}/api-keys`, { name: '', role: 'owner' });

    expect(noReason.status).toBe(422);
    expect(noReason.json.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['reason']);
    expect(badKey.status).toBe(422);
    expect(badKey.json.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(['name', 'role']);
    expect((await api.get('/api/product-sectors')).status).toBe(200);
    expect((await approver.get(`/ops/v1/partners/${partner.id}`)).json.apiKeys).toHaveLength(2);
  });
});
