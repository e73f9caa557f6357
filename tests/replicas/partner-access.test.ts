import { ApiClient, Replicas, Stack, bootReplicas, bootStack, createTestPartner, shutdownStack, waitFor } from '@rental/testkit';
import { Ops } from '../backoffice/support/kit';

/**
 * Two gateways and two pricing processes on one database. Keys are cached for 10 minutes and
 * conditions for 10 minutes, so only the Postgres notifications can explain that a revocation,
 * a suspension or a conditions change reaches the other replica: it must within 2 s
 * (PARTNER-PORTAL.md section 2, issue 29). The times are printed for docs/benchmarks.md.
 */
const DEADLINE_MS = 2000;
const leasing36 = { durations: [36], calculationTypes: ['leasing'], acquisitionCost: 1000, productSector: 'IT_AND_OFFICE_EQUIPMENT' };

let stack: Stack;
let replicas: Replicas;
let approver: Ops;

beforeAll(async () => {
  stack = await bootStack({ env: { API_KEY_CACHE_SECONDS: '600', PRICING_CONDITIONS_CACHE_TTL_MS: '600000', DB_POOL_MAX: '3' } });
  replicas = await bootReplicas(stack);
  approver = await Ops.as('approver', stack);
}, 180_000);

afterAll(async () => {
  if (stack) await shutdownStack(stack);
}, 60_000);

/** Polls until `done` holds for the answer of `request`; the milliseconds from `since`. */
async function millisecondsUntil(
  since: number,
  request: () => Promise<{ status: number; json: any }>,
  done: (response: { status: number; json: any }) => boolean,
): Promise<number> {
  await waitFor(async () => (done(await request()) ? true : undefined), { timeoutMs: DEADLINE_MS, intervalMs: 20, what: 'the change to reach the replica' });
  return Date.now() - since;
}

/** For each gateway, the milliseconds from `since` until its answer to the partner's GET /api/product-sectors is `done`. */
function untilBoth(both: ApiClient[], since: number, done: (response: { status: number; json: any }) => boolean): Promise<number[]> {
  return Promise.all(both.map((gateway) => millisecondsUntil(since, () => gateway.get('/api/product-sectors'), done)));
}

function gateways(key: string): ApiClient[] {
  return [new ApiClient(stack.gatewayUrl, key), new ApiClient(replicas.gatewayUrl, key)];
}

describe('partner access on two gateway and two pricing replicas', () => {
  it('when a key is revoked, then both gateways answer 401 api_key.revoked within 2 s although they cached the key', async () => {
    const partner = await createTestPartner(stack, { like: 'acme' });
    const both = gateways(partner.key);
    for (const gateway of both) expect((await gateway.get('/api/product-sectors')).status).toBe(200);
    const key = (await approver.get(`/ops/v1/partners/${partner.id}`)).json.apiKeys.find((candidate: { role: string }) => candidate.role === 'api_user');

    const started = Date.now();
    expect((await approver.post(`/ops/v1/partners/${partner.id}/api-keys/${key.id}/revoke`, { reason: 'leaked' })).status).toBe(200);
    const times = await untilBoth(both, started, (r) => r.status === 401 && /api_key\.revoked$/.test(r.json.type));

    console.log(`revoke → first 401: gateway 1 ${times[0]} ms, gateway 2 ${times[1]} ms`);
  });

  it('when a partner is suspended, then both gateways answer 401 partner.suspended within 2 s, and after reactivation both accept its key again', async () => {
    const partner = await createTestPartner(stack, { like: 'acme' });
    const both = gateways(partner.key);
    for (const gateway of both) expect((await gateway.get('/api/product-sectors')).status).toBe(200);

    const started = Date.now();
    expect((await approver.post(`/ops/v1/partners/${partner.id}/suspend`, { reason: 'fraud check' })).status).toBe(200);
    const times = await untilBoth(both, started, (r) => r.status === 401 && /partner\.suspended$/.test(r.json.type));
    console.log(`suspension → first 401: gateway 1 ${times[0]} ms, gateway 2 ${times[1]} ms`);

    const reactivated = Date.now();
    expect((await approver.post(`/ops/v1/partners/${partner.id}/reactivate`, { reason: 'cleared' })).status).toBe(200);
    const back = await untilBoth(both, reactivated, (r) => r.status === 200);
    console.log(`reactivation → first 200: gateway 1 ${back[0]} ms, gateway 2 ${back[1]} ms`);
  });

  it('when the conditions change, then both pricing replicas price the next estimate with them', async () => {
    const partner = await createTestPartner(stack, { like: 'acme' });
    const both = gateways(partner.key);
    for (const gateway of both) expect((await gateway.post('/api/calculate/estimate', leasing36)).json.offers[0].rentalFactor).toBe('3.180');
    const { conditions } = (await approver.get(`/ops/v1/partners/${partner.id}`)).json;

    const started = Date.now();
    const changed = await approver.put(`/ops/v1/partners/${partner.id}/conditions`, {
      ...conditions,
      rentalFactors: { ...conditions.rentalFactors, leasing: { 0: { 36: 2.99 } } },
      reason: 'campaign',
    });
    expect(changed.status).toBe(200);
    const first = await Promise.all(both.map((gateway) => gateway.post('/api/calculate/estimate', leasing36)));
    const times = [Date.now() - started, Date.now() - started];

    expect(first.map((response) => response.json.offers[0].rentalFactor)).toEqual(['2.990', '2.990']);
    console.log(`conditions change → first estimate with them: pricing 1 and 2 within ${times[0]} ms of the request (the next request after the 200)`);
  });
});
