import { ApiClient, createTestPartner } from '@rental/testkit';
import { ListeningProcess, startExtraGateway } from '../api-description/support/prism';
import { sharedStack } from '../support/shared-stack';

// A gateway with limits on, in front of the shared stack: the stack's own gateway runs without
// limits, and no other limited gateway on it counts addresses, so only this file spends the
// budgets of its two partners and of the loopback address.
let gateway: ListeningProcess;
let keys: { first: string; second: string };

beforeAll(async () => {
  const [first, second] = await Promise.all([createTestPartner(sharedStack()), createTestPartner(sharedStack())]);
  keys = { first: first.key, second: second.key };
  gateway = await startExtraGateway(sharedStack(), {
    RATE_LIMIT_KEY_PER_SECOND: '0.5',
    RATE_LIMIT_KEY_BURST: '3',
    RATE_LIMIT_ADDRESS_PER_SECOND: '0.5',
    RATE_LIMIT_ADDRESS_BURST: '8',
  });
}, 60_000);

afterAll(() => gateway?.stop());

describe('gateway rate limits', () => {
  it('when one key exceeds its burst, then 429 problem+json with Retry-After, while another key still passes', async () => {
    const first = new ApiClient(gateway.url, keys.first);
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await first.get('/api/product-sectors')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await first.get('/api/product-sectors');
    expect(refused.status).toBe(429);
    expect(refused.contentType).toBe('application/problem+json; charset=utf-8');
    expect(refused.json).toMatchObject({ status: 429, title: 'Too many requests', detail: expect.stringContaining('API key') });
    // Three requests per window of 3 / 0.5 = 6 s: the window has just begun.
    expect(refused.headers.get('retry-after')).toBe('6');
    expect((await first.withKey(keys.second).get('/api/product-sectors')).status).toBe(200);
  });

  it('when one address keeps calling with bad keys, then it is throttled after its burst (valid keys from it above did not count)', async () => {
    const anonymous = new ApiClient(gateway.url, 'sbx_guess_00000000000000000000');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await anonymous.get('/api/product-sectors')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429, 429]);
    const refused = await anonymous.get('/api/product-sectors');
    expect(refused.json).toMatchObject({ status: 429, detail: expect.stringContaining('address') });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
