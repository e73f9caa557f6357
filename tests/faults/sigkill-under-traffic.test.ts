import { ApiClient, ProcessName, Stack, TestPartner, WebhookReceiver, bootStack, createTestPartner, shutdownStack, waitFor } from '@rental/testkit';
import { download } from '../documents/support/kit';
import { registerEndpoint } from '../notifications/support';
import { rows } from '../support/database';
import { Journey, RetryingClient, deliveredAgainstOutbox, outboxOfPartner, runJourney, waitForEveryEvent } from './support/traffic';

/**
 * Steady partner traffic (journeys of six calls by three clients at once) while each process is
 * killed with SIGKILL in turn and started again, as a supervisor would. Clients retry connection
 * errors and 503 with the same request and Idempotency-Key. Afterwards every answered write must
 * be there once, and every status change must have reached the partner's webhook under its id.
 *
 * notifications and documents go first: a message or webhook attempt in flight when they die comes
 * back only when its lease runs out (30 s ack wait, webhook timeout + 30 s), which then overlaps
 * the other phases.
 */
const ORDER: ProcessName[] = ['notifications', 'documents', 'case-workflow', 'cart-checkout', 'pricing', 'gateway'];
const WORKERS = 3;
/** Successful calls through a process before it is killed, and after it is back. */
const WARM = 6;

interface PhaseFigure {
  process: ProcessName;
  /** From SIGKILL until the new process reported ready. */
  readyMs: number;
  /** From SIGKILL until the first call started after the kill that needed it succeeded (a webhook attempt, for notifications). */
  recoveredMs: number;
}

let stack: Stack;
let partner: TestPartner;
let receiver: WebhookReceiver;
let client: RetryingClient;
const journeys: Journey[] = [];
const failures: string[] = [];
const figures: PhaseFigure[] = [];
let trafficMs = 0;
let settleMs = 0;

/**
 * When calls through `name` succeeded, for attempts started after `since`; for notifications,
 * the webhook attempts it recorded as succeeded (a dead process starts none).
 */
async function successesThrough(name: ProcessName, since: number): Promise<number[]> {
  if (name === 'notifications') {
    const attempts = await rows<{ ended: Date }>(
      stack.databaseUrl,
      `SELECT a.started_at + a.duration_ms * interval '1 millisecond' AS ended FROM notifications.delivery_attempts a
      JOIN notifications.deliveries d ON d.id = a.delivery_id WHERE d.partner_id = $1 AND a.succeeded AND a.started_at > $2`,
      [partner.id, new Date(since)],
    );
    return attempts.map((attempt) => attempt.ended.getTime());
  }
  return client.successes.filter((success) => success.touches.includes(name) && success.startedAt > since).map((success) => success.endedAt);
}

async function killAndRestart(name: ProcessName): Promise<PhaseFigure> {
  const phaseStart = Date.now();
  await waitFor(async () => ((await successesThrough(name, phaseStart)).length >= WARM ? true : undefined), {
    timeoutMs: 30_000,
    what: `traffic through ${name}`,
  });
  const killedAt = Date.now();
  await stack.processes[name].kill('SIGKILL');
  stack.processes[name].start();
  await stack.processes[name].waitReady();
  const readyAt = Date.now();
  const recoveredAt = await waitFor(
    async () => {
      const after = await successesThrough(name, killedAt);
      return after.length > 0 ? Math.min(...after) : undefined;
    },
    { timeoutMs: 30_000, what: `a successful call through ${name} after its restart` },
  );
  await waitFor(async () => ((await successesThrough(name, readyAt)).length >= WARM ? true : undefined), {
    timeoutMs: 30_000,
    what: `traffic through ${name} after its restart`,
  });
  return { process: name, readyMs: readyAt - killedAt, recoveredMs: recoveredAt - killedAt };
}

beforeAll(async () => {
  stack = await bootStack();
  partner = await createTestPartner(stack, { like: 'acme' });
  receiver = await WebhookReceiver.start();
  // A receiver that takes a moment, so attempts are on the wire when notifications dies.
  receiver.respondWith(() => ({ status: 204, delayMs: 30 }));
  const api = new ApiClient(stack.gatewayUrl, partner.key);
  await registerEndpoint(api, `${receiver.url}/sigkill`);
  client = new RetryingClient(api);

  let stopping = false;
  const started = Date.now();
  const workers = Array.from({ length: WORKERS }, async (_, worker) => {
    for (let index = worker; !stopping; index += WORKERS) {
      try {
        journeys.push(await runJourney(client, index));
      } catch (error) {
        failures.push(String(error));
      }
    }
  });
  try {
    for (const name of ORDER) figures.push(await killAndRestart(name));
  } finally {
    stopping = true;
    await Promise.all(workers);
  }
  trafficMs = Date.now() - started;
  const settling = Date.now();
  await waitForEveryEvent(receiver, await outboxOfPartner(stack.databaseUrl, partner.id), 90_000);
  settleMs = Date.now() - settling;
}, 240_000);

afterAll(async () => {
  if (stack && partner && receiver) {
    const written = await outboxOfPartner(stack.databaseUrl, partner.id);
    const { lost, unknown, redelivered } = deliveredAgainstOutbox(receiver, written);
    process.stdout.write(
      `${JSON.stringify({ journeys: journeys.length, calls: client.tally.attempts, byStatus: client.tally.byStatus, events: written.length, lost: lost.length, secondIds: unknown.length, redelivered, trafficMs, settleMs, figures })}\n`,
    );
  }
  await receiver?.close();
  if (stack) await shutdownStack(stack);
});

describe('SIGKILL of each process during traffic', () => {
  it('when every process was killed and restarted in turn, then every journey finished and no call got an answer other than its own, 503, a connection error or "still running"', () => {
    expect(figures.map((figure) => figure.process)).toEqual(ORDER);
    expect(failures).toEqual([]);
    // Anything but the expected answer, a 503, a connection error or 409 "still running" lands here (a 500 would).
    expect(client.tally.unexpected).toEqual([]);
    expect(journeys.length).toBeGreaterThanOrEqual(ORDER.length * 2);
    expect(Object.values(stack.processes).every((process) => process.isRunning())).toBe(true);
  });

  it('then every write that got a 2xx is there: calculations, carts, checkouts and documents, byte for byte', async () => {
    const api = client.api;
    for (const journey of journeys) {
      expect((await api.get(`/api/calculations/${journey.calculationId}`)).status).toBe(200);
      const [first, ...others] = journey.checkouts;
      expect(others.every((checkout) => checkout.financeCaseId === first!.financeCaseId && checkout.quoteId === first!.quoteId)).toBe(true);
      const cart = await api.get(`/api/carts/${journey.cartId}`);
      expect([cart.status, cart.json.status, cart.json.financeCaseId]).toEqual([200, 'checked_out', first!.financeCaseId]);
      expect((await api.get(`/api/financing_cases/${first!.financeCaseId}`)).json.status).toBe('canceled');
      for (const document of journey.documents) {
        const fetched = await download(stack, partner.key, `/api/documents/${document.id}/download`);
        expect([fetched.status, fetched.bytes.equals(document.bytes)]).toEqual([200, true]);
      }
    }
  });

  it('then each checked-out cart has exactly one financing case, and each case exactly its five status changes', async () => {
    const perCart = await rows<{ cart_id: string; cases: number }>(
      stack.databaseUrl,
      'SELECT cart_id, count(*)::int AS cases FROM case_workflow.financing_cases WHERE partner_id = $1 GROUP BY cart_id',
      [partner.id],
    );
    expect(perCart.filter((row) => row.cases !== 1)).toEqual([]);
    expect(perCart.map((row) => row.cart_id).sort()).toEqual(journeys.map((journey) => journey.cartId).sort());

    const written = await outboxOfPartner(stack.databaseUrl, partner.id);
    const moves = new Map<string, string[]>();
    for (const event of written) moves.set(event.data.financingCaseId, [...(moves.get(event.data.financingCaseId) ?? []), event.data.transition]);
    const expected = ['create', 'accept_by_customer', 'request_finance_review', 'finance_accept', 'cancel'];
    expect([...moves.values()].filter((transitions) => transitions.join() !== expected.join())).toEqual([]);
    expect(moves.size).toBe(journeys.length);
    expect(
      await rows(stack.databaseUrl, "SELECT id FROM case_workflow.outbox WHERE payload->>'partnerId' = $1 AND published_at IS NULL", [partner.id]),
    ).toEqual([]);
  });

  it('then every status change reached the webhook under its own id, none was lost and none got a second id', async () => {
    const written = await outboxOfPartner(stack.databaseUrl, partner.id);
    const outcome = deliveredAgainstOutbox(receiver, written);
    expect({ lost: outcome.lost, unknown: outcome.unknown, mismatched: outcome.mismatched }).toEqual({ lost: [], unknown: [], mismatched: [] });
    const duplicates = await rows(
      stack.databaseUrl,
      'SELECT event_id FROM notifications.deliveries WHERE partner_id = $1 GROUP BY event_id HAVING count(*) > 1',
      [partner.id],
    );
    expect(duplicates).toEqual([]);
  });

  it('then documents applied every cancel once (its consumer lost nothing across the kills)', async () => {
    const cancels = (await outboxOfPartner(stack.databaseUrl, partner.id)).filter(
      (event) => event.data.transition === 'cancel' && event.data.resourceType === 'quote',
    );
    const consumed = await waitFor(
      async () => {
        const found = await rows<{ event_id: string }>(stack.databaseUrl, 'SELECT event_id FROM documents.consumed_events WHERE event_id = ANY($1)', [
          cancels.map((event) => event.id),
        ]);
        return found.length === cancels.length ? found : undefined;
      },
      { timeoutMs: 45_000, intervalMs: 500, what: 'every cancel consumed by documents' },
    );
    expect(consumed.map((row) => row.event_id).sort()).toEqual(cancels.map((event) => event.id).sort());
  });
});

describe('SIGKILL of cart-checkout in the middle of a checkout', () => {
  it('when cart-checkout dies while its checkout waits for case-workflow, then a retry with the same key takes the checkout over within the lease and gets the one case', async () => {
    const api = client.api;
    const cart = await api.post('/api/carts', { items: [{ productNumber: 'LAPTOP-MID', quantity: 1, price: 1234, categorySlug: 'laptops' }] });
    const body = { duration: 36, financingType: 'leasing', customer: { company: 'Midway GmbH' } };
    const key = { headers: { 'Idempotency-Key': `mid-${cart.json.cartId}` } };
    const caseWorkflow = stack.processes['case-workflow'].pid!;

    // case-workflow holds the request without answering; cart-checkout has claimed the cart and waits.
    process.kill(caseWorkflow, 'SIGSTOP');
    let first: Promise<number>;
    try {
      first = api.post(`/api/carts/${cart.json.cartId}/checkout`, body, key).then(
        (response) => response.status,
        () => 0,
      );
      await waitFor(
        async () => {
          const [row] = await rows<{ status: string }>(stack.databaseUrl, 'SELECT status FROM cart_checkout.carts WHERE id = $1', [cart.json.cartId]);
          return row?.status === 'checking_out' ? true : undefined;
        },
        { intervalMs: 20, what: 'the cart to be claimed' },
      );
      await stack.processes['cart-checkout'].kill('SIGKILL');
    } finally {
      process.kill(caseWorkflow, 'SIGCONT');
    }
    expect(await first).toBe(503);
    stack.processes['cart-checkout'].start();
    await stack.processes['cart-checkout'].waitReady();

    const retryStarted = Date.now();
    const statuses: number[] = [];
    const retried = await waitFor(
      async () => {
        const response = await api.post(`/api/carts/${cart.json.cartId}/checkout`, body, key);
        statuses.push(response.status);
        if (response.status === 409) expect(response.json.type).toBe(`${stack.gatewayUrl}/problems/checkout.running`);
        return response.status === 201 ? response : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, what: 'the retried checkout to be taken over' },
    );
    process.stdout.write(`checkout taken over ${Date.now() - retryStarted} ms after the restart (${statuses.length} tries: ${statuses.join(' ')})\n`);

    expect(statuses.filter((status) => status !== 409 && status !== 503 && status !== 201)).toEqual([]);
    const cases = await rows<{ id: string }>(stack.databaseUrl, 'SELECT id FROM case_workflow.financing_cases WHERE cart_id = $1', [cart.json.cartId]);
    expect(cases).toEqual([{ id: retried.json.financeCaseId }]);
    expect((await api.post(`/api/carts/${cart.json.cartId}/checkout`, body, key)).json).toEqual(retried.json);
    expect((await api.get(`/api/carts/${cart.json.cartId}`)).json).toMatchObject({ status: 'checked_out', financeCaseId: retried.json.financeCaseId });
  }, 60_000);
});
