import { randomBytes, randomUUID } from 'node:crypto';
import { DeliverPolicy, connect } from 'nats';
import { busNames } from '@rental/bus';
import { databaseNameOf } from '@rental/config';
import { ApiClient, WebhookReceiver, createTestPartner, logLines, waitFor, sampleCustomer as customer } from '@rental/testkit';
import { rows } from '../support/database';
import { sharedStack } from '../support/shared-stack';

// An operator follows one checkout by the request id the partner got back in X-Request-Id, or by
// the trace id of the W3C traceparent: every process the checkout reached has written its lines
// with both, and the trace id travels with its events (outbox, NATS) to the partner's webhook.
// documents receives only cancellations from the bus, so a cancellation's request id reaches it.

const laptop = { productNumber: 'LAPTOP-1', productName: 'Laptop', quantity: 1, price: 1000, categorySlug: 'laptops' };

let hook: WebhookReceiver;

beforeAll(async () => {
  hook = await WebhookReceiver.start();
});

afterAll(() => hook.close());

const linesWith = (processName: string, requestId: string) => logLines(sharedStack().logDirectory, processName).filter((line) => line.requestId === requestId);
const linesOfTrace = (processName: string, traceId: string) => logLines(sharedStack().logDirectory, processName).filter((line) => line.traceId === traceId);

const checkoutProcesses = ['gateway', 'cart-checkout', 'pricing', 'case-workflow', 'notifications'];

/** The outbox rows case-workflow wrote for one request: its status events and mail requests. */
function outboxRowsOf(requestId: string): Promise<{ message_id: string; subject: string; traceparent: string | null }[]> {
  return rows(sharedStack().databaseUrl, 'SELECT message_id, subject, traceparent FROM case_workflow.outbox WHERE request_id = $1 ORDER BY id', [requestId]);
}

/** The headers of the message the relay published with this id (Nats-Msg-Id), read back from the stack's stream. */
async function publishedHeaders(subject: string, messageId: string, since: Date): Promise<Record<string, string> | undefined> {
  const { stream } = busNames(sharedStack().environment, databaseNameOf(sharedStack().databaseUrl));
  const connection = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  try {
    const consumer = await connection
      .jetstream()
      .consumers.get(stream, { filterSubjects: subject, deliver_policy: DeliverPolicy.StartTime, opt_start_time: since.toISOString() });
    for (;;) {
      const message = await consumer.next({ expires: 2000 });
      if (!message) return undefined;
      if (message.headers?.get('Nats-Msg-Id') === messageId)
        return Object.fromEntries([...message.headers.keys()].map((name) => [name, message.headers!.get(name)]));
    }
  } finally {
    await connection.close();
  }
}

describe('one request id across the processes', () => {
  it("when a partner checks a cart out and cancels the case, then the checkout's request id finds the lines of the gateway, cart-checkout, pricing, case-workflow and the webhook delivery in notifications, and the cancellation's those of documents", async () => {
    const partner = await createTestPartner(sharedStack(), { like: 'acme' });
    const api = new ApiClient(sharedStack().gatewayUrl, partner.key);
    expect((await api.post('/api/webhook_endpoints', { url: `${hook.url}/trace` })).status).toBe(201);
    const cart = await api.post('/api/carts', { items: [laptop] });
    const requestId = `trace-${randomUUID()}`;

    const checkout = await api.post(
      `/api/carts/${cart.json.cartId}/checkout`,
      { duration: 36, financingType: 'leasing', customer },
      { headers: { 'X-Request-Id': requestId, 'Idempotency-Key': randomUUID() } },
    );

    expect([checkout.status, checkout.headers.get('x-request-id')]).toEqual([201, requestId]);
    const processes = checkoutProcesses;
    // The webhook is delivered after the checkout answered: wait for its line too.
    const found = await waitFor(
      () => {
        const counts = Object.fromEntries(processes.map((name) => [name, linesWith(name, requestId).length]));
        const delivered = linesWith('notifications', requestId).some((line) => line.msg === 'webhook delivered');
        return delivered && Object.values(counts).every((count) => count > 0) ? counts : undefined;
      },
      { timeoutMs: 15_000, what: `log lines with ${requestId} in every process` },
    ).catch(() => Object.fromEntries(processes.map((name) => [name, linesWith(name, requestId).map((line) => line.msg)])));
    expect(found).toEqual(Object.fromEntries(processes.map((name) => [name, expect.any(Number)])));
    expect(linesWith('gateway', requestId)).toEqual([
      expect.objectContaining({ msg: 'request', route: '/api/carts/{id}/checkout', status: 201, partnerId: partner.id }),
    ]);
    expect(linesWith('notifications', requestId).map((line) => line.msg)).toContain('webhook delivered');

    const cancelRequestId = `trace-cancel-${randomUUID()}`;
    const cancel = await api.post(`/api/financing_cases/${checkout.json.financeCaseId}/cancel`, undefined, { headers: { 'X-Request-Id': cancelRequestId } });
    expect(cancel.status).toBe(204);
    const documentsLines = await waitFor(
      () => {
        const lines = linesWith('documents', cancelRequestId);
        return lines.some((line) => line.msg === 'message handled') ? lines : undefined;
      },
      { timeoutMs: 15_000, what: `documents' lines with ${cancelRequestId}` },
    ).catch(() => linesWith('documents', cancelRequestId));
    expect(documentsLines.map((line) => line.msg)).toEqual(['case canceled: document tokens invalidated, callback requests closed', 'message handled']);
  });
});

describe('one W3C trace across the processes', () => {
  it('when a partner checks a cart out with a traceparent, then its trace id is on the lines of every process, the outbox rows, the NATS messages and the webhooks', async () => {
    const partner = await createTestPartner(sharedStack(), { like: 'acme' });
    const api = new ApiClient(sharedStack().gatewayUrl, partner.key);
    const hookPath = `/traced-${randomUUID()}`;
    expect((await api.post('/api/webhook_endpoints', { url: `${hook.url}${hookPath}` })).status).toBe(201);
    const cart = await api.post('/api/carts', { items: [laptop] });
    const traceId = randomBytes(16).toString('hex');
    const requestId = `traced-${randomUUID()}`;
    const since = new Date(Date.now() - 1000);

    const checkout = await api.post(
      `/api/carts/${cart.json.cartId}/checkout`,
      { duration: 36, financingType: 'leasing', customer },
      {
        headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`, 'X-Request-Id': requestId, 'Idempotency-Key': randomUUID() },
      },
    );

    expect([checkout.status, checkout.headers.get('x-request-id')]).toEqual([201, requestId]);
    const rows = await outboxRowsOf(requestId);
    const statusEvents = rows.filter((row) => row.subject.includes('.case.status_changed.'));
    expect(statusEvents.length).toBeGreaterThan(0);
    const webhooks = () => hook.requests.filter((request) => request.path === hookPath);
    const deliveredLines = () => linesOfTrace('notifications', traceId).filter((line) => line.msg === 'webhook delivered');
    // Deliveries are logged after the receiver answered: wait for their lines too.
    await waitFor(
      () => (deliveredLines().length === statusEvents.length && checkoutProcesses.every((name) => linesOfTrace(name, traceId).length > 0) ? true : undefined),
      {
        timeoutMs: 15_000,
        what: `${statusEvents.length} webhooks and log lines with trace ${traceId} in every process`,
      },
    ).catch(() => undefined);
    expect(Object.fromEntries(checkoutProcesses.map((name) => [name, linesOfTrace(name, traceId).length > 0]))).toEqual(
      Object.fromEntries(checkoutProcesses.map((name) => [name, true])),
    );
    // The checkout's own lines carry its request id; the webhook's delivery line is among notifications' lines.
    for (const name of ['gateway', 'cart-checkout', 'pricing', 'case-workflow']) {
      expect(linesOfTrace(name, traceId).map((line) => [name, line.requestId])).toEqual(linesOfTrace(name, traceId).map(() => [name, requestId]));
    }
    expect(linesOfTrace('gateway', traceId)).toEqual([
      expect.objectContaining({ msg: 'request', route: '/api/carts/{id}/checkout', status: 201, requestId, traceId }),
    ]);
    expect(deliveredLines().map((line) => line.requestId)).toEqual(statusEvents.map(() => requestId));
    const traceparentOfTrace = new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`);
    expect(rows.map((row) => traceparentOfTrace.test(row.traceparent ?? ''))).toEqual(rows.map(() => true));
    const published = await publishedHeaders(statusEvents[0]!.subject, statusEvents[0]!.message_id, since);
    expect([published?.traceparent, published?.['X-Request-Id']]).toEqual([statusEvents[0]!.traceparent, requestId]);
    expect(webhooks().map((request) => traceparentOfTrace.test(String(request.headers.traceparent)))).toEqual(statusEvents.map(() => true));
  });

  it('when the traceparent is not a valid one, then the gateway starts a new trace that the services continue', async () => {
    const api = new ApiClient(sharedStack().gatewayUrl, (await createTestPartner(sharedStack(), { like: 'acme' })).key);
    const requestId = `untraced-${randomUUID()}`;

    const created = await api.post(
      '/api/carts',
      { items: [laptop] },
      { headers: { traceparent: `00-${'0'.repeat(32)}-${'1'.repeat(16)}-01`, 'X-Request-Id': requestId } },
    );

    expect(created.status).toBe(201);
    // Each process flushes its log lines on its own schedule: wait until both have written theirs.
    const [gatewayLine] = await waitFor(
      () => (linesWith('gateway', requestId).length > 0 && linesWith('cart-checkout', requestId).length > 0 ? linesWith('gateway', requestId) : undefined),
      {
        what: `the gateway's and cart-checkout's lines of ${requestId}`,
      },
    );
    expect(gatewayLine).toEqual(expect.objectContaining({ msg: 'request', traceId: expect.stringMatching(/^[0-9a-f]{32}$/) }));
    expect(gatewayLine!.traceId).not.toBe('0'.repeat(32));
    const cartCheckout = linesWith('cart-checkout', requestId);
    expect(cartCheckout.map((line) => line.traceId)).toEqual(cartCheckout.map(() => gatewayLine!.traceId));
    expect(cartCheckout.length).toBeGreaterThan(0);
  });
});
