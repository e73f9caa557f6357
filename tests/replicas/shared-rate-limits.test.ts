import { Client } from 'pg';
import { ListeningProcess, startExtraGateway } from '../api-description/support/prism';
import { ApiClient, Stack, bootStack, fixturePartnerKey, shutdownStack } from '@rental/testkit';

/**
 * Two gateways on one database in front of the same services, with a key limit of 200 requests
 * per 40 s window: each gateway leases slices of the window from Postgres and spends them from
 * memory, and still a partner calling through both is held to the shared limit.
 */
const BURST = 200;
const LIMITS = { RATE_LIMIT_KEY_PER_SECOND: '5', RATE_LIMIT_KEY_BURST: String(BURST), RATE_LIMIT_ADDRESS_PER_SECOND: '0' };

let stack: Stack;
let second: ListeningProcess;
let secondUrl: string;

beforeAll(async () => {
  stack = await bootStack({ env: LIMITS });
  // The helper every test uses for another gateway on the stack (its own free ports).
  second = await startExtraGateway(stack, LIMITS);
  secondUrl = second.url;
});

afterAll(async () => {
  await second?.stop();
  await shutdownStack(stack);
});

async function leasedPoints(): Promise<number[]> {
  const client = new Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ points: number }>("SELECT points FROM gateway.rate_limits WHERE key LIKE 'key:%' ORDER BY points");
    return result.rows.map((row) => row.points);
  } finally {
    await client.end();
  }
}

describe('gateway rate limits shared by two gateways', () => {
  it('when a key makes its first request, then its gateway leases a twentieth of the window from Postgres, not one request', async () => {
    const response = await new ApiClient(stack.gatewayUrl, fixturePartnerKey('beta')).get('/api/product-sectors');
    expect(response.status).toBe(200);
    expect(await leasedPoints()).toEqual([BURST / 20]);
  });

  it('when a partner calls through both gateways past its limit, then both refuse it within 10 % of the limit, and another key still passes', async () => {
    const gateways = [new ApiClient(stack.gatewayUrl, fixturePartnerKey('acme')), new ApiClient(secondUrl, fixturePartnerKey('acme'))];
    const statuses: number[][] = [[], []];
    // 300 requests, ten at a time on each gateway, well within one 40 s window.
    await Promise.all(
      gateways.flatMap((client, gateway) =>
        Array.from({ length: 10 }, async () => {
          for (let i = 0; i < 15; i += 1) statuses[gateway]!.push((await client.get('/api/product-sectors')).status);
        }),
      ),
    );
    const allowed = statuses.flat().filter((status) => status === 200).length;
    const refused = statuses.flat().filter((status) => status === 429).length;
    expect(allowed + refused).toBe(300);
    expect(allowed).toBeLessThanOrEqual(BURST);
    expect(allowed).toBeGreaterThanOrEqual(BURST * 0.9);
    // Both gateways end refusing: neither kept a budget of its own.
    expect(statuses.map((answers) => answers.slice(-5))).toEqual([
      [429, 429, 429, 429, 429],
      [429, 429, 429, 429, 429],
    ]);
    const refusal = await gateways[1]!.get('/api/product-sectors');
    expect(refusal.status).toBe(429);
    expect(Number(refusal.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refusal.headers.get('retry-after'))).toBeLessThanOrEqual(40);
    expect((await new ApiClient(secondUrl, fixturePartnerKey('beta')).get('/api/product-sectors')).status).toBe(200);
  });
});
