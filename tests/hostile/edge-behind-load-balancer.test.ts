import { ApiClient, Stack, bootStack, fixturePartnerKey, shutdownStack } from '@rental/testkit';
import { ListeningProcess, startExtraGateway } from '../api-description/support/prism';

/**
 * The gateway behind a load balancer (here: loopback is the trusted proxy) with a second
 * replica on the same database. Key budgets are shared; the per-address budget counts only
 * attempts without a valid key, at the address X-Forwarded-For names through the trusted proxy.
 */

const LIMITS = { RATE_LIMIT_KEY_PER_SECOND: '1', RATE_LIMIT_KEY_BURST: '6', RATE_LIMIT_ADDRESS_PER_SECOND: '10', RATE_LIMIT_ADDRESS_BURST: '1000' };
const ATTACKER = '203.0.113.7';
const PARTNER_CLIENT = '198.51.100.9';
const GUESSED_KEY = 'sbx_guess_00000000000000000000';

let stack: Stack;
let replica: ListeningProcess;
let untrustingReplica: ListeningProcess;

beforeAll(async () => {
  stack = await bootStack({ env: { ...LIMITS, TRUSTED_PROXIES: '127.0.0.1/8' } });
  replica = await startExtraGateway(stack, { ...LIMITS, TRUSTED_PROXIES: '127.0.0.1/8' });
  // A replica configured to trust no proxy: X-Forwarded-For means nothing to it.
  untrustingReplica = await startExtraGateway(stack, { ...LIMITS, RATE_LIMIT_ADDRESS_PER_SECOND: '0.1', RATE_LIMIT_ADDRESS_BURST: '5', TRUSTED_PROXIES: '' });
}, 120_000);

afterAll(async () => {
  await replica?.stop();
  await untrustingReplica?.stop();
  await shutdownStack(stack);
});

const from = (address: string) => ({ 'X-Forwarded-For': address });

describe('rate limits at the edge', () => {
  it('when one key calls through two gateway replicas, then both draw on one budget', async () => {
    const gateways = [new ApiClient(stack.gatewayUrl, fixturePartnerKey('acme')), new ApiClient(replica.url, fixturePartnerKey('acme'))];
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) statuses.push((await gateways[i % 2]!.get('/api/product-sectors', { headers: from(PARTNER_CLIENT) })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  });

  it('when 1,100 requests without a valid key come from one address through the trusted proxy, then that address is throttled and valid keys are not', async () => {
    const guesser = new ApiClient(stack.gatewayUrl, GUESSED_KEY);
    const counts: Record<number, number> = {};
    const started = Date.now();
    for (let batch = 0; batch < 110; batch += 1) {
      const statuses = await Promise.all(
        Array.from({ length: 10 }, () => guesser.get('/api/product-sectors', { headers: from(ATTACKER) }).then((response) => response.status)),
      );
      for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
    }
    process.stdout.write(`1,100 unauthenticated requests in ${Date.now() - started} ms\n`);
    expect(counts).toEqual({ 401: 1000, 429: 100 });

    const beta = new ApiClient(stack.gatewayUrl, fixturePartnerKey('beta'));
    expect((await beta.get('/api/product-sectors', { headers: from(PARTNER_CLIENT) })).status).toBe(200);
    // A valid key is limited by its own budget only, even from the throttled address.
    expect((await beta.get('/api/product-sectors', { headers: from(ATTACKER) })).status).toBe(200);
    expect((await new ApiClient(replica.url, fixturePartnerKey('beta')).get('/api/product-sectors', { headers: from(ATTACKER) })).status).toBe(200);
    // Another client behind the same load balancer keeps its own budget for a mistyped key.
    expect((await guesser.get('/api/product-sectors', { headers: from(PARTNER_CLIENT) })).status).toBe(401);
    // The throttled address is throttled on the other replica too.
    const viaReplica = await new ApiClient(replica.url, GUESSED_KEY).get('/api/product-sectors', { headers: from(ATTACKER) });
    expect(viaReplica.status).toBe(429);
    expect(viaReplica.json).toMatchObject({ status: 429, detail: expect.stringContaining('address') });
  });

  it('when the gateway trusts no proxy, then a client cannot pick its address with X-Forwarded-For', async () => {
    const guesser = new ApiClient(untrustingReplica.url, GUESSED_KEY);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) statuses.push((await guesser.get('/api/product-sectors', { headers: from(`192.0.2.${i + 1}`) })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });
});
