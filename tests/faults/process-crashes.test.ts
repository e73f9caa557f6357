import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { ApiClient, ApiResponse, Stack, bootStack, fixturePartnerKey, sampleRequester, shutdownStack, waitFor } from '@rental/testkit';
import { rows } from '../support/database';

// Processes stopped, killed and restarted on one stack of this file's own (the shared stack serves
// the other worker meanwhile). Each test leaves every process running; should one fail half-way,
// afterEach starts what it left down, so the next test starts from a whole stack.
let stack: Stack;
let api: ApiClient;

beforeAll(async () => {
  stack = await bootStack();
  api = new ApiClient(stack.gatewayUrl, fixturePartnerKey('acme'));
}, 120_000);

afterEach(async () => {
  if (!stack) return;
  const stopped = Object.values(stack.processes).filter((process) => !process.isRunning());
  stopped.forEach((process) => process.start());
  await Promise.all(stopped.map((process) => process.waitReady()));
});

afterAll(() => shutdownStack(stack));

describe('a stopped service', () => {
  it('when pricing is down, then its paths answer 503 problem+json within a second, and work again after a restart', async () => {
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

const person = { ...sampleRequester, company: 'Crash AG' };

/** Case-workflow's sessions waiting for a lock: the case's insert waits behind the test's table lock. */
async function waitingForLock(): Promise<number> {
  const [row] = await rows<{ count: number }>(
    stack.databaseUrl,
    "SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
  );
  return row!.count;
}

// The quote request is filed before cart-checkout asks case-workflow for its case, and an
// interrupted filing is completed with the same request (case-workflow makes one case per quote
// request): a cart-checkout dying in between leaves no case without its quote request.
describe('a quote request while cart-checkout dies', () => {
  it('when cart-checkout dies while case-workflow creates the case, then after its restart the quote request exists, linked to that one case, with one create_quote event', async () => {
    const calculation = await api.post('/api/calculate', {
      durations: [36],
      calculationTypes: ['leasing'],
      acquisitionCost: 1000,
      productSector: 'IT_AND_OFFICE_EQUIPMENT',
    });
    expect(calculation.status).toBe(201);
    const before = (await api.get('/api/quote_requests')).json.map((request: { id: number }) => request.id);

    // The case's insert waits behind this lock while cart-checkout waits for case-workflow.
    const blocker = new Client({ connectionString: stack.databaseUrl });
    await blocker.connect();
    let first;
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE case_workflow.financing_cases IN SHARE ROW EXCLUSIVE MODE');
      const inFlight = api.post('/api/quote_requests', { ...person, calculation: calculation.json.uri });
      await waitFor(async () => ((await waitingForLock()) > 0 ? true : undefined), {
        timeoutMs: 10_000,
        intervalMs: 50,
        what: 'case-workflow to wait on the lock',
      });
      await stack.processes['cart-checkout'].kill('SIGKILL');
      await blocker.query('COMMIT');
      first = await inFlight;
    } finally {
      await blocker.end();
    }
    expect([502, 503]).toContain(first.status);

    const [made] = await waitFor(
      async () => {
        const cases = await rows<{ id: string; quote_request_id: string }>(
          stack.databaseUrl,
          'SELECT id, quote_request_id FROM case_workflow.financing_cases WHERE partner_id = $1 AND quote_request_id IS NOT NULL AND quote_request_id <> ALL($2::text[])',
          ['acme', before.map(String)],
        );
        return cases.length > 0 ? cases : undefined;
      },
      { what: 'the case case-workflow made' },
    );

    stack.processes['cart-checkout'].start();
    await stack.processes['cart-checkout'].waitReady();
    const linked = await waitFor(
      async () => {
        const response = await api.get(`/api/quote_requests/${made!.quote_request_id}`);
        return response.status === 200 && response.json.status === 'quote_created' ? response.json : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500, what: 'the interrupted quote request to be completed' },
    );
    expect(linked.email).toBe(person.email);
    const [stored] = await rows<{ financing_case_id: string; status: string }>(
      stack.databaseUrl,
      'SELECT financing_case_id, status FROM cart_checkout.quote_requests WHERE id = $1',
      [Number(made!.quote_request_id)],
    );
    expect(stored).toEqual({ financing_case_id: made!.id, status: 'quote_created' });
    expect(
      await rows(stack.databaseUrl, 'SELECT id FROM case_workflow.financing_cases WHERE partner_id = $1 AND quote_request_id = $2', [
        'acme',
        made!.quote_request_id,
      ]),
    ).toHaveLength(1);
    const events = await rows<{ transition: string }>(
      stack.databaseUrl,
      "SELECT payload->'data'->>'transition' AS transition FROM cart_checkout.outbox WHERE payload->'data'->>'financingCaseId' = $1",
      [made!.id],
    );
    expect(events).toEqual([{ transition: 'create_quote' }]);
  }, 120_000);
});
