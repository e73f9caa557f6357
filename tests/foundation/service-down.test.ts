import { ApiClient, Stack, bootStack, fixturePartnerKey, shutdownStack } from '@rental/testkit';

let stack: Stack;

beforeAll(async () => {
  stack = await bootStack();
});

afterAll(() => shutdownStack(stack));

describe('a stopped service', () => {
  it('when pricing is down, then its paths answer 503 problem+json within a second, and work again after a restart', async () => {
    const api = new ApiClient(stack.gatewayUrl, fixturePartnerKey('acme'));
    await stack.processes.pricing.kill('SIGKILL');

    const started = Date.now();
    const down = await api.get('/api/product-sectors');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(down.status).toBe(503);
    expect(down.contentType).toBe('application/problem+json; charset=utf-8');
    expect(down.json).toMatchObject({ status: 503, title: 'Service unavailable' });
    expect(down.headers.get('retry-after')).toBe('1');

    stack.processes.pricing.start();
    await stack.processes.pricing.waitReady();
    expect((await api.get('/api/product-sectors')).status).toBe(200);
  });

  it('when the gateway gets SIGTERM, then it exits cleanly', async () => {
    await stack.processes.gateway.stop();
    expect(stack.processes.gateway.isRunning()).toBe(false);
    stack.processes.gateway.start();
    await stack.processes.gateway.waitReady();
  });
});
