import { Client } from 'pg';
import { ApiClient, Stack, bootStack, fixturePartnerKey, shutdownStack, waitFor, sampleRequester } from '@rental/testkit';
import { rows } from '../support/database';

/**
 * Issue 27 item 4: cart-checkout asked case-workflow for a quote request's case inside the
 * transaction that filed the quote request, so a cart-checkout dying before its commit left the
 * case without its quote request. Now the quote request is filed first, and an interrupted filing
 * is completed with the same request (case-workflow makes one case per quote request).
 */
let stack: Stack;
let api: ApiClient;

beforeAll(async () => {
  stack = await bootStack();
  api = new ApiClient(stack.gatewayUrl, fixturePartnerKey('acme'));
}, 120_000);

afterAll(() => shutdownStack(stack));

const person = { ...sampleRequester, company: 'Crash AG' };

/** Case-workflow's sessions waiting for a lock: the case's insert waits behind the test's table lock. */
async function waitingForLock(): Promise<number> {
  const [row] = await rows<{ count: number }>(
    stack.databaseUrl,
    "SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
  );
  return row!.count;
}

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
