import { defaultAdminPort } from '@rental/config';
import { ApiClient, PrivatePostgres, Stack, bootStack, fixturePartnerKey, waitFor } from '@rental/testkit';

let postgres: PrivatePostgres;
let stack: Stack;

beforeAll(async () => {
  postgres = await PrivatePostgres.launch();
  stack = await bootStack({ postgresUrl: postgres.url });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await postgres?.dispose();
});

describe('PostgreSQL restarted during traffic', () => {
  it('when Postgres is down, then requests fail with 503 problem+json; after it is back they succeed without restarting any service', async () => {
    const api = new ApiClient(stack.gatewayUrl, fixturePartnerKey('acme'));
    expect((await api.get('/api/product-sectors')).status).toBe(200);
    const pids = Object.values(stack.processes).map((process) => process.pid);

    await postgres.stop();
    const down = await api.get('/api/product-sectors');
    expect(down.status).toBe(503);
    expect(down.contentType).toBe('application/problem+json; charset=utf-8');
    expect(down.json).toMatchObject({ status: 503, title: 'Database unavailable' });
    expect(down.text).not.toMatch(/at .*\.js|stack|<html/i);

    await postgres.start();
    await waitFor(async () => ((await api.get('/api/product-sectors')).status === 200 ? true : undefined), {
      timeoutMs: 15_000,
      what: 'pricing to answer again',
    });
    expect(Object.values(stack.processes).map((process) => process.pid)).toEqual(pids);
    expect(Object.values(stack.processes).every((process) => process.isRunning())).toBe(true);
  });

  it('when Postgres is down, then readiness says so and recovers', async () => {
    const readiness = () => fetch(`http://127.0.0.1:${defaultAdminPort('pricing', stack.portBase)}/readyz`).then((response) => response.status);
    await postgres.stop();
    expect(await readiness()).toBe(503);
    await postgres.start();
    await waitFor(async () => ((await readiness()) === 200 ? true : undefined), { timeoutMs: 15_000, what: 'pricing ready again' });
  });
});
