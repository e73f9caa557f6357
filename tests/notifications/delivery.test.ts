import { Webhook } from 'standardwebhooks';
import { defaultAdminPort } from '@rental/config';
import { ApiClient, createTestPartner, waitFor } from '@rental/testkit';
import { apiAs, sharedStack } from '../support/shared-stack';
import { deliveryFixture, expectedBody, hmacBase64, registerEndpoint, requestsFor, sleep, waitForDelivery, waitForRequests } from './support';

const hookup = deliveryFixture(sharedStack);
const receiver = () => hookup.receiver();

async function partner(): Promise<{ id: string; api: ApiClient }> {
  const created = await createTestPartner(sharedStack());
  return { id: created.id, api: apiAs(created.key) };
}

describe('a delivered status change', () => {
  it('when an event is published, then the endpoint gets one POST of the specified body, signed over its exact bytes', async () => {
    const { id, api } = await partner();
    const hook = await receiver();
    const endpoint = await registerEndpoint(api, `${hook.url}/hooks/rental?tenant=7`);

    const event = await hookup.publisher.publish(
      hookup.publisher.event(id, { fromStatus: 'finance_review', toStatus: 'finance_accepted', status: 'finance_accepted', transition: 'finance_accept' }),
    );

    const [request] = await waitForRequests(hook, event.id, 1);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/hooks/rental?tenant=7');
    expect(request!.rawBody.toString('utf8')).toBe(expectedBody(event));
    expect(JSON.parse(request!.rawBody.toString('utf8'))).toEqual({
      id: event.id,
      event: 'financing_case.status_changed',
      occurredAt: event.occurredAt,
      version: 1,
      data: { ...event.data },
    });
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['user-agent']).toBe('PartnerRentalAPI-Webhooks/1.0 (notifications)');
    expect(request!.headers['x-webhook-signature']).toBe(hmacBase64(endpoint.secret, request!.rawBody));
    expect(request!.headers['webhook-id']).toBe(event.id);
  });

  it('when the receiver verifies with the Standard Webhooks library, then the signature holds and a changed body fails', async () => {
    const { id, api } = await partner();
    const hook = await receiver();
    const endpoint = await registerEndpoint(api, `${hook.url}/std`);

    const event = await hookup.publisher.publish(hookup.publisher.event(id));

    const [request] = await waitForRequests(hook, event.id, 1);
    const headers = {
      'webhook-id': String(request!.headers['webhook-id']),
      'webhook-timestamp': String(request!.headers['webhook-timestamp']),
      'webhook-signature': String(request!.headers['webhook-signature']),
    };
    expect(new Webhook(endpoint.secret).verify(request!.rawBody, headers)).toEqual(JSON.parse(expectedBody(event)));
    expect(Math.abs(Number(headers['webhook-timestamp']) - request!.receivedAt / 1000)).toBeLessThan(5);
    const tampered = Buffer.from(request!.rawBody.toString('utf8').replace(event.data.toStatus, 'completed'));
    expect(() => new Webhook(endpoint.secret).verify(tampered, headers)).toThrow('No matching signature found');
    expect(hmacBase64(endpoint.secret, tampered)).not.toBe(request!.headers['x-webhook-signature']);
  });

  it('when the delivery succeeded, then the deliveries list shows it with one attempt', async () => {
    const { id, api } = await partner();
    const hook = await receiver();
    const endpoint = await registerEndpoint(api, `${hook.url}/list`);

    const event = await hookup.publisher.publish(hookup.publisher.event(id));

    const delivery = await waitForDelivery(api, endpoint.id, event.id, 'succeeded');
    expect(delivery).toEqual({
      '@type': 'WebhookDelivery',
      eventId: event.id,
      event: 'financing_case.status_changed',
      occurredAt: event.occurredAt,
      status: 'succeeded',
      dropReason: null,
      attemptCount: 1,
      nextAttemptAt: null,
      createdAt: expect.any(String),
      completedAt: expect.any(String),
      attempts: [{ attempt: 1, attemptedAt: expect.any(String), statusCode: 204, durationMs: expect.any(Number), succeeded: true, error: null }],
    });
  });

  it('when a partner has two active endpoints and a paused one, then each active one gets the event once and the paused one nothing', async () => {
    const { id, api } = await partner();
    const [first, second, paused] = [await receiver(), await receiver(), await receiver()];
    await registerEndpoint(api, `${first.url}/a`);
    await registerEndpoint(api, `${second.url}/b`);
    await registerEndpoint(api, `${paused.url}/c`, false);

    const event = await hookup.publisher.publish(hookup.publisher.event(id));

    await waitForRequests(first, event.id, 1);
    await waitForRequests(second, event.id, 1);
    await sleep(500);
    expect([requestsFor(first, event.id).length, requestsFor(second, event.id).length, paused.requests.length]).toEqual([1, 1, 0]);
  });

  it("when another partner's case changes, then this partner's endpoint gets nothing", async () => {
    const mine = await partner();
    const theirs = await partner();
    const hook = await receiver();
    const theirHook = await receiver();
    await registerEndpoint(mine.api, `${hook.url}/mine`);
    await registerEndpoint(theirs.api, `${theirHook.url}/theirs`);

    const event = await hookup.publisher.publish(hookup.publisher.event(theirs.id));

    await waitForRequests(theirHook, event.id, 1);
    await sleep(300);
    expect(hook.requests).toEqual([]);
  });

  it('when the same event id arrives twice, then it is delivered once', async () => {
    const { id, api } = await partner();
    const hook = await receiver();
    await registerEndpoint(api, `${hook.url}/dedup`);
    const event = hookup.publisher.event(id);

    // Two messages (different JetStream message ids) with the same event id, then a marker.
    await hookup.publisher.publish(event, `${event.id}-first`);
    await hookup.publisher.publish(event, `${event.id}-second`);
    const marker = await hookup.publisher.publish(hookup.publisher.event(id));

    await waitForRequests(hook, marker.id, 1);
    await waitForRequests(hook, event.id, 1);
    await sleep(500);
    expect(requestsFor(hook, event.id)).toHaveLength(1);
  });

  it('when a message on the subject is not a valid event, then it is skipped and later events still arrive', async () => {
    const { id, api } = await partner();
    const hook = await receiver();
    await registerEndpoint(api, `${hook.url}/after-garbage`);

    await hookup.publisher.publishRaw({ id: 'garbage', event: 'something_else', partnerId: id });
    await hookup.publisher.publishRaw('not even an object');
    const event = await hookup.publisher.publish(hookup.publisher.event(id));

    await waitForRequests(hook, event.id, 1);
    expect(hook.requests).toHaveLength(1);
  });

  it('when an event is stored, then a deleted endpoint gets nothing', async () => {
    const { id, api } = await partner();
    const [kept, removed] = [await receiver(), await receiver()];
    await registerEndpoint(api, `${kept.url}/kept`);
    const gone = await registerEndpoint(api, `${removed.url}/removed`);
    await api.delete(`/api/webhook_endpoints/${gone.id}`);

    const event = await hookup.publisher.publish(hookup.publisher.event(id));

    await waitForRequests(kept, event.id, 1);
    await sleep(300);
    expect(removed.requests).toEqual([]);
  });
});

describe('pausing', () => {
  it('when an endpoint is paused, then it gets nothing; resumed, it gets only later events, none replayed', async () => {
    const { id, api } = await partner();
    const [watched, witness] = [await receiver(), await receiver()];
    const endpoint = await registerEndpoint(api, `${watched.url}/paused`);
    await registerEndpoint(api, `${witness.url}/witness`);
    expect((await api.patch(`/api/webhook_endpoints/${endpoint.id}`, { active: false })).status).toBe(200);

    const whilePaused = await hookup.publisher.publish(hookup.publisher.event(id));
    await waitForRequests(witness, whilePaused.id, 1);
    await sleep(300);
    expect(watched.requests).toEqual([]);

    expect((await api.patch(`/api/webhook_endpoints/${endpoint.id}`, { active: true })).status).toBe(200);
    const afterResume = await hookup.publisher.publish(hookup.publisher.event(id));
    await waitForRequests(watched, afterResume.id, 1);
    await waitForRequests(witness, afterResume.id, 1);
    await sleep(500);
    expect(watched.requests.map((request) => request.headers['webhook-id'])).toEqual([afterResume.id]);
  });

  it('when an endpoint is paused while a retry is scheduled, then the retry is dropped and not sent after resuming', async () => {
    const { id, api } = await partner();
    const hook = await receiver();
    hook.respondWith(() => ({ status: 503 }));
    const endpoint = await registerEndpoint(api, `${hook.url}/pause-retry`);

    const event = await hookup.publisher.publish(hookup.publisher.event(id));
    await waitForRequests(hook, event.id, 1);
    await api.patch(`/api/webhook_endpoints/${endpoint.id}`, { active: false });
    const delivery = await waitForDelivery(api, endpoint.id, event.id, 'dropped', 5000);
    expect([delivery.dropReason, delivery.attemptCount, delivery.nextAttemptAt]).toEqual(['endpoint_paused', 1, null]);

    hook.respondWith(() => ({ status: 204 }));
    await api.patch(`/api/webhook_endpoints/${endpoint.id}`, { active: true });
    await sleep(3000);
    expect(requestsFor(hook, event.id)).toHaveLength(1);
  });
  it('when an endpoint is paused while a failing attempt is on the wire, then the attempt is recorded and no retry follows the resume', async () => {
    const { id, api } = await partner();
    const hook = await receiver();
    hook.respondWith(() => ({ status: 500, delayMs: 1000 }));
    const endpoint = await registerEndpoint(api, `${hook.url}/pause-in-flight`);

    const event = await hookup.publisher.publish(hookup.publisher.event(id));
    await waitForRequests(hook, event.id, 1);
    await api.patch(`/api/webhook_endpoints/${endpoint.id}`, { active: false });
    await sleep(1500);
    hook.respondWith(() => ({ status: 204 }));
    await api.patch(`/api/webhook_endpoints/${endpoint.id}`, { active: true });
    await sleep(3000);

    expect(requestsFor(hook, event.id)).toHaveLength(1);
    const delivery = await waitForDelivery(api, endpoint.id, event.id, 'dropped', 1000);
    expect([delivery.dropReason, delivery.attemptCount, delivery.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)]).toEqual([
      'endpoint_paused',
      1,
      [500],
    ]);
  });
});

describe('concurrency', () => {
  it('when one endpoint hangs on every request, then another endpoint of the same partner still gets all events at once', async () => {
    const { id, api } = await partner();
    const [slow, fast] = [await receiver(), await receiver()];
    slow.respondWith(() => ({ status: 204, delayMs: 4000 }));
    await registerEndpoint(api, `${slow.url}/slow`);
    await registerEndpoint(api, `${fast.url}/fast`);

    const events = [];
    for (let n = 0; n < 40; n += 1) events.push(await hookup.publisher.publish(hookup.publisher.event(id)));

    await waitFor(() => (fast.requests.length >= 40 ? true : undefined), { timeoutMs: 15_000, what: 'all 40 events at the fast endpoint' });
    const firstSlowAnswer = Math.min(...slow.requests.map((request) => request.receivedAt)) + 4000;
    expect(Math.max(...fast.requests.map((request) => request.receivedAt))).toBeLessThan(firstSlowAnswer);
    expect(new Set(fast.requests.map((request) => request.headers['webhook-id']))).toEqual(new Set(events.map((event) => event.id)));
    await waitFor(() => (slow.requests.length >= 40 ? true : undefined), { timeoutMs: 30_000, what: 'all 40 events at the slow endpoint' });
    // Let the receiver answer the last ones before it closes.
    await sleep(Math.max(...slow.requests.map((request) => request.receivedAt)) + 4200 - Date.now());
  }, 60_000);
});

/** Sum of notifications' Prometheus samples of `name` that carry every label in `labels`. */
async function notificationsMetric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${defaultAdminPort('notifications', sharedStack().portBase)}/metrics`)).text();
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => wanted.every((pair) => line.slice(0, line.lastIndexOf(' ')).includes(pair)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe('delivery metrics', () => {
  it('when an event is delivered, then /metrics counts the successful attempt and observes its lag', async () => {
    const attempts = () => notificationsMetric('webhook_delivery_attempts_total', { outcome: 'succeeded' });
    const lagCount = () => notificationsMetric('webhook_delivery_lag_seconds_count');
    const before = { attempts: await attempts(), lag: await lagCount() };
    const { id, api } = await partner();
    const hook = await receiver();
    await registerEndpoint(api, `${hook.url}/metrics`);

    const event = await hookup.publisher.publish(hookup.publisher.event(id));
    await waitForRequests(hook, event.id, 1);

    // Other suites deliver on the shared stack too, so the counters grow by at least this delivery.
    await waitFor(async () => ((await attempts()) >= before.attempts + 1 ? true : undefined), { what: 'the attempt counted' });
    expect(await lagCount()).toBeGreaterThanOrEqual(before.lag + 1);
  });
});
