import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DEMO_SEED_FILE, readSeedFile } from '@rental/stack/fixture';
import { ApiClient } from '@rental/testkit';
import { Ops, expectProblem, sharedStack } from './support/kit';

const fixture = readSeedFile(DEMO_SEED_FILE);
const leasing36 = { durations: [36], calculationTypes: ['leasing'], acquisitionCost: 1000, productSector: 'IT_AND_OFFICE_EQUIPMENT' };

function newPartnerBody(overrides: Record<string, unknown> = {}) {
  const id = `onboarded-${randomBytes(4).toString('hex')}`;
  return {
    id,
    name: `Onboarded Reseller ${id}`,
    contactEmail: `ops@${id}.example`,
    allowedSectors: ['IT_AND_OFFICE_EQUIPMENT'],
    financingPartner: fixture.lenders[0]!.id,
    distributionHub: null,
    monthlySurcharge: 1.5,
    paymentIntervals: ['monthly'],
    rentalFactors: { leasing: { 0: { 36: 3.0, 48: 2.4 } } },
    residualValues: {},
    ...overrides,
  };
}

async function partnerRowCounts(partnerId: string): Promise<number[]> {
  const db = new Client({ connectionString: sharedStack().databaseUrl });
  await db.connect();
  try {
    const counts = [];
    for (const table of ['gateway.partners', 'gateway.partner_audit', 'pricing.partners', 'pricing.rental_factors']) {
      const column = table.endsWith('partners') ? 'id' : 'partner_id';
      counts.push(Number((await db.query(`SELECT count(*) FROM ${table} WHERE ${column} = $1`, [partnerId])).rows[0].count));
    }
    return counts;
  } finally {
    await db.end();
  }
}

describe('onboarding a partner in the back office', () => {
  it('when an approver creates a partner and its first key, then its first estimate prices with its conditions, and the id cannot be taken twice', async () => {
    const approver = await Ops.as('approver');
    const body = newPartnerBody();

    const created = await approver.post('/ops/v1/partners', body);

    expect(created.status).toBe(201);
    const { id, name, contactEmail, ...conditions } = body;
    expect(created.json).toEqual({
      id,
      name,
      contactEmail,
      financingPartner: body.financingPartner,
      status: 'active',
      activeKeys: 0,
      lastUsedAt: null,
      suspendedAt: null,
      suspensionReason: null,
      conditions: { ...conditions, rentalFactors: { leasing: { 0: { 36: 3, 48: 2.4 } } } },
      apiKeys: [],
    });
    const key = await approver.post(`/ops/v1/partners/${id}/api-keys`, { name: 'First key', role: 'api_user' });
    expect(key.status).toBe(201);
    const estimate = await new ApiClient(sharedStack().gatewayUrl, key.json.key).post('/api/calculate/estimate', leasing36);
    // 1000.00 × 3.000 % = 30.00, plus the 1.50 monthly surcharge
    expect(estimate.status).toBe(201);
    expect(estimate.json.offers.map((offer: { rentalFactor: string; rate: number }) => [offer.rentalFactor, offer.rate])).toEqual([['3.000', 31.5]]);

    expectProblem(await approver.post('/ops/v1/partners', body), 409, 'partner.exists');
    expect((await approver.get(`/ops/v1/partners/${id}/audit`)).json.map((entry: { action: string }) => entry.action)).toEqual([
      'api_key.created',
      'partner.created',
    ]);
  });

  it('when the lender, hub or a sector is unknown, then it is 422 naming each field and nothing is written anywhere', async () => {
    const approver = await Ops.as('approver');
    const body = newPartnerBody({
      financingPartner: 'lender-nobody',
      distributionHub: 'hub-nowhere',
      allowedSectors: ['IT_AND_OFFICE_EQUIPMENT', 'SPACESHIPS'],
    });

    const refused = await approver.post('/ops/v1/partners', body);

    expect(refused.status).toBe(422);
    expect(refused.json.violations.map((v: { propertyPath: string; code: string }) => [v.propertyPath, v.code])).toEqual([
      ['financingPartner', 'validation.unknown_reference'],
      ['distributionHub', 'validation.unknown_reference'],
      ['allowedSectors[1]', 'validation.unknown_reference'],
    ]);
    expect(await partnerRowCounts(body.id)).toEqual([0, 0, 0, 0]);
    expectProblem(await approver.get(`/ops/v1/partners/${body.id}`), 404);
  });

  it("when the body breaks the seed file's shape, then it is 422 naming the field, as the seed refuses the same partner", async () => {
    const approver = await Ops.as('approver');
    const body = newPartnerBody({ monthlySurcharge: 1.555, paymentIntervals: ['weekly'], apiKeys: [] });

    const refused = await approver.post('/ops/v1/partners', body);

    expect(refused.status).toBe(422);
    expect(refused.json.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(['apiKeys', 'monthlySurcharge', 'paymentIntervals[0]']);
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'seed-shape-'));
    const file = path.join(scratch, 'seed.json');
    const { apiKeys: _none, ...partner } = body as typeof body & { apiKeys?: unknown };
    fs.writeFileSync(
      file,
      JSON.stringify({
        ...fixture,
        partners: [{ ...partner, financingPartner: 'lender-nobody', monthlySurcharge: 1.5, paymentIntervals: ['monthly'], apiKeys: [] }],
      }),
    );
    expect(() => readSeedFile(file)).toThrow(/partners\.0\.financingPartner No lender lender-nobody/);
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('when an approver replaces the conditions, then the next estimate prices with them and the change is audited with the reason', async () => {
    const approver = await Ops.as('approver');
    const body = newPartnerBody();
    await approver.post('/ops/v1/partners', body);
    const key = (await approver.post(`/ops/v1/partners/${body.id}/api-keys`, { name: 'First key', role: 'api_user' })).json.key as string;
    const partnerApi = new ApiClient(sharedStack().gatewayUrl, key);
    expect((await partnerApi.post('/api/calculate/estimate', leasing36)).json.offers[0].rate).toBe(31.5);
    const { id: _id, name: _name, contactEmail: _contact, ...conditions } = body;

    const replaced = await approver.put(`/ops/v1/partners/${body.id}/conditions`, {
      ...conditions,
      rentalFactors: { leasing: { 0: { 36: 2.9 } } },
      reason: 'new framework agreement',
    });

    expect(replaced.status).toBe(200);
    expect(replaced.json.conditions.rentalFactors).toEqual({ leasing: { 0: { 36: 2.9 } } });
    expect((await partnerApi.post('/api/calculate/estimate', leasing36)).json.offers[0]).toEqual(
      expect.objectContaining({ rentalFactor: '2.900', rate: 30.5 }),
    );
    const [entry] = (await approver.get(`/ops/v1/partners/${body.id}/audit`)).json;
    expect(entry).toEqual(
      expect.objectContaining({
        action: 'partner.conditions_changed',
        reason: 'new framework agreement',
        target: { type: 'partner', id: body.id, name: body.name },
      }),
    );
    const unknownHub = await approver.put(`/ops/v1/partners/${body.id}/conditions`, { ...conditions, distributionHub: 'hub-nowhere' });
    expect(unknownHub.json.violations).toEqual([expect.objectContaining({ propertyPath: 'distributionHub' })]);
    expect((await partnerApi.post('/api/calculate/estimate', leasing36)).json.offers[0].rentalFactor).toBe('2.900');
  });
});
