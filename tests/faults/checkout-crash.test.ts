import { randomUUID } from 'node:crypto';
import { ApiClient, ApiResponse, Stack, bootStack, fixturePartnerKey, shutdownStack, waitFor } from '@rental/testkit';
import { rows } from '../support/database';

let stack: Stack;

beforeAll(async () => {
  stack = await bootStack();
});

afterAll(() => shutdownStack(stack));

async function casesOfCart(cartId: string): Promise<number> {
  const [row] = await rows<{ count: number }>(stack.databaseUrl, 'SELECT count(*)::int AS count FROM case_workflow.financing_cases WHERE cart_id = $1', [
    cartId,
  ]);
  return row!.count;
}

/** Restarts case-workflow and retries the checkout until the gateway's gRPC channel has reconnected. */
async function restartAndRetry(retry: () => Promise<ApiResponse>): Promise<ApiResponse> {
  stack.processes['case-workflow'].start();
  await stack.processes['case-workflow'].waitReady();
  // The channel from cart-checkout reconnects with a short backoff; until then a retry may be 503.
  return waitFor(
    async () => {
      const response = await retry();
      return response.status === 503 ? undefined : response;
    },
    { timeoutMs: 15_000, intervalMs: 250, what: 'checkout to reach the restarted case-workflow' },
  );
}

describe('checkout while case-workflow dies', () => {
  it('when case-workflow is killed during a checkout, then a retry with the same key after its restart yields exactly one case', async () => {
    const api = new ApiClient(stack.gatewayUrl, fixturePartnerKey('acme'));
    const cart = await api.post('/api/carts', { items: [{ productNumber: 'LAPTOP-1', quantity: 1, price: 1000, categorySlug: 'laptops' }] });
    const body = { duration: 36, financingType: 'leasing', customer: { company: 'Crash GmbH' } };
    const key = { headers: { 'Idempotency-Key': randomUUID() } };

    const inFlight = api.post(`/api/carts/${cart.json.cartId}/checkout`, body, key);
    await stack.processes['case-workflow'].kill('SIGKILL');
    const first = await inFlight;
    // Either case-workflow answered before it died, or the checkout failed as unavailable.
    expect([201, 503]).toContain(first.status);
    if (first.status === 503) expect(first.contentType).toBe('application/problem+json; charset=utf-8');

    const retry = await restartAndRetry(() => api.post(`/api/carts/${cart.json.cartId}/checkout`, body, key));
    expect(retry.status).toBe(201);
    if (first.status === 201) expect(retry.json).toEqual(first.json);
    expect(await casesOfCart(cart.json.cartId)).toBe(1);
    expect((await api.get(`/api/financing_cases/${retry.json.financeCaseId}`)).status).toBe(200);
  });

  it('when case-workflow is down, then checkout answers 503 and leaves the cart active for a retry', async () => {
    const api = new ApiClient(stack.gatewayUrl, fixturePartnerKey('acme'));
    const cart = await api.post('/api/carts', { items: [{ productNumber: 'LAPTOP-2', quantity: 1, price: 500, categorySlug: 'laptops' }] });
    await stack.processes['case-workflow'].kill('SIGKILL');
    const key = { headers: { 'Idempotency-Key': randomUUID() } };
    const body = { duration: 36, financingType: 'leasing', customer: { company: 'Down GmbH' } };
    const refused = await api.post(`/api/carts/${cart.json.cartId}/checkout`, body, key);
    expect(refused.status).toBe(503);
    expect((await api.get(`/api/carts/${cart.json.cartId}`)).json.status).toBe('active');
    expect((await restartAndRetry(() => api.post(`/api/carts/${cart.json.cartId}/checkout`, body, key))).status).toBe(201);
    expect(await casesOfCart(cart.json.cartId)).toBe(1);
  });
});
