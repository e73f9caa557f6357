import { Webhook } from 'standardwebhooks';
import { ApiClient, ReceivedRequest, WebhookReceiver, createTestPartner } from '@rental/testkit';
import { apiAs, sharedStack } from '../support/shared-stack';
import type { RegisteredEndpoint } from './support';
import {
  ISO_TIME,
  WEBHOOK_SECRET,
  deliveryFixture,
  endpointView,
  expectedBody,
  hmacBase64,
  registerEndpoint,
  requestsFor,
  sleep,
  waitForDelivery,
  waitForRequests,
} from './support';
import { problemTypeOf } from '../support/problems';

// The tools partners use on their endpoints (secret rotation, redelivery, test events), tried
// with real deliveries to real receivers.

const PROBLEM = 'application/problem+json; charset=utf-8';

const hookup = deliveryFixture(sharedStack);
const receiver = () => hookup.receiver();

async function partnerWithEndpoint(path = '/tools'): Promise<{ id: string; api: ApiClient; hook: WebhookReceiver; endpoint: RegisteredEndpoint }> {
  const partner = await createTestPartner(sharedStack());
  const api = apiAs(partner.key);
  const hook = await receiver();
  return { id: partner.id, api, hook, endpoint: await registerEndpoint(api, `${hook.url}${path}`) };
}

const standardHeaders = (request: ReceivedRequest) => ({
  'webhook-id': String(request.headers['webhook-id']),
  'webhook-timestamp': String(request.headers['webhook-timestamp']),
  'webhook-signature': String(request.headers['webhook-signature']),
});

/** Whether the Standard Webhooks library accepts the delivery with this secret. */
function verifies(secret: string, request: ReceivedRequest): boolean {
  try {
    new Webhook(secret).verify(request.rawBody, standardHeaders(request));
    return true;
  } catch {
    return false;
  }
}

function expectProblem(response: { status: number; contentType: string; json: any }, status: number, code: string) {
  expect([response.status, response.contentType, response.json.status, response.json.type]).toEqual([status, PROBLEM, status, problemTypeOf(code)]);
}

function expectViolation(response: { status: number; contentType: string; json: any }, propertyPath: string, code: string) {
  expect([response.status, response.contentType]).toEqual([422, PROBLEM]);
  expect(response.json.violations).toEqual([{ propertyPath, code, message: expect.any(String) }]);
}

/** What another partner gets for this endpoint from the plain read; every tool must answer the same. */
async function foreignAnswer(endpointId: string) {
  const stranger = apiAs((await createTestPartner(sharedStack())).key);
  const read = await stranger.get(`/api/webhook_endpoints/${endpointId}`);
  expect([403, 404]).toContain(read.status);
  return { stranger, expected: { status: read.status, contentType: read.contentType, type: read.json.type, detail: read.json.detail } };
}

const answerOf = (response: { status: number; contentType: string; json: any }) => ({
  status: response.status,
  contentType: response.contentType,
  type: response.json.type,
  detail: response.json.detail,
});

describe('POST /api/webhook_endpoints/{id}/rotate-secret', () => {
  it('when a secret is rotated with an overlap, then 200 shows the new secret once and deliveries carry both Standard Webhooks signatures while X-Webhook-Signature stays with the old secret', async () => {
    const { id, api, hook, endpoint } = await partnerWithEndpoint();
    const before = Date.now();

    const rotated = await api.post(`/api/webhook_endpoints/${endpoint.id}/rotate-secret`, { overlapSeconds: 3600 });

    expect([rotated.status, rotated.contentType]).toEqual([200, 'application/json; charset=utf-8']);
    expect(rotated.json).toEqual(
      endpointView(endpoint.id, {
        url: endpoint.url,
        active: true,
        createdAt: expect.stringMatching(ISO_TIME),
        secret: expect.stringMatching(WEBHOOK_SECRET),
        previousSecretExpiresAt: expect.stringMatching(ISO_TIME),
      }),
    );
    expect(rotated.json.secret).not.toBe(endpoint.secret);
    const expiresAt = Date.parse(rotated.json.previousSecretExpiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect((await api.get(`/api/webhook_endpoints/${endpoint.id}`)).json).not.toHaveProperty('secret');

    const event = await hookup.publisher.publish(hookup.publisher.event(id));
    const [request] = await waitForRequests(hook, event.id, 1);

    expect(
      String(request!.headers['webhook-signature'])
        .split(' ')
        .map((entry) => entry.slice(0, 3)),
    ).toEqual(['v1,', 'v1,']);
    expect([verifies(rotated.json.secret, request!), verifies(endpoint.secret, request!)]).toEqual([true, true]);
    expect(new Webhook(rotated.json.secret).verify(request!.rawBody, standardHeaders(request!))).toEqual(JSON.parse(expectedBody(event)));
    expect(request!.headers['x-webhook-signature']).toBe(hmacBase64(endpoint.secret, request!.rawBody));
  });

  it('when the overlap has run out, or the rotation had none, then only the new secret signs, in both headers', async () => {
    const { id, api, hook, endpoint } = await partnerWithEndpoint();

    const short = await api.post(`/api/webhook_endpoints/${endpoint.id}/rotate-secret`, { overlapSeconds: 1 });
    expect(short.status).toBe(200);
    await sleep(1500);
    const afterOverlap = await hookup.publisher.publish(hookup.publisher.event(id));
    const [expired] = await waitForRequests(hook, afterOverlap.id, 1);

    expect(String(expired!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect([verifies(short.json.secret, expired!), verifies(endpoint.secret, expired!)]).toEqual([true, false]);
    expect(expired!.headers['x-webhook-signature']).toBe(hmacBase64(short.json.secret, expired!.rawBody));

    const immediate = await api.post(`/api/webhook_endpoints/${endpoint.id}/rotate-secret`, { overlapSeconds: 0 });
    expect([immediate.status, immediate.json.previousSecretExpiresAt]).toEqual([200, null]);
    const afterImmediate = await hookup.publisher.publish(hookup.publisher.event(id));
    const [request] = await waitForRequests(hook, afterImmediate.id, 1);

    expect([verifies(immediate.json.secret, request!), verifies(short.json.secret, request!)]).toEqual([true, false]);
    expect(request!.headers['x-webhook-signature']).toBe(hmacBase64(immediate.json.secret, request!.rawBody));
  });

  it('when no body is sent, then the old secret keeps signing for a day', async () => {
    const { api, endpoint } = await partnerWithEndpoint();
    const before = Date.now();

    const rotated = await api.request('POST', `/api/webhook_endpoints/${endpoint.id}/rotate-secret`);

    expect(rotated.status).toBe(200);
    expect(Date.parse(rotated.json.previousSecretExpiresAt)).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
    expect(Date.parse(rotated.json.previousSecretExpiresAt)).toBeLessThanOrEqual(Date.now() + 86_400_000);
  });

  it('when overlapSeconds is negative, over a week, not an integer, or an unknown field is sent, then 422 names the field and the secret stays', async () => {
    const { id, api, hook, endpoint } = await partnerWithEndpoint();
    const rotate = (body: unknown) => api.post(`/api/webhook_endpoints/${endpoint.id}/rotate-secret`, body);

    expectViolation(await rotate({ overlapSeconds: -1 }), 'overlapSeconds', 'validation.too_small');
    expectViolation(await rotate({ overlapSeconds: 604_801 }), 'overlapSeconds', 'validation.too_big');
    expectViolation(await rotate({ overlapSeconds: 'soon' }), 'overlapSeconds', 'validation.type');
    expectViolation(await rotate({ secret: 'whsec_mine' }), 'secret', 'validation.unknown_field');

    const event = await hookup.publisher.publish(hookup.publisher.event(id));
    const [request] = await waitForRequests(hook, event.id, 1);
    expect([String(request!.headers['webhook-signature']).split(' ').length, verifies(endpoint.secret, request!)]).toEqual([1, true]);
  });

  it('when another partner, an unknown id or a deleted endpoint is rotated, then it answers as the endpoint read does and nothing changes', async () => {
    const { id, api, hook, endpoint } = await partnerWithEndpoint();
    const { stranger, expected } = await foreignAnswer(endpoint.id);

    expect(answerOf(await stranger.post(`/api/webhook_endpoints/${endpoint.id}/rotate-secret`, {}))).toEqual(expected);
    expectProblem(await api.post('/api/webhook_endpoints/01J00000000000000000000000/rotate-secret', {}), 404, 'webhook_endpoint.not_found');

    const event = await hookup.publisher.publish(hookup.publisher.event(id));
    const [request] = await waitForRequests(hook, event.id, 1);
    expect([String(request!.headers['webhook-signature']).split(' ').length, verifies(endpoint.secret, request!)]).toEqual([1, true]);

    expect((await api.delete(`/api/webhook_endpoints/${endpoint.id}`)).status).toBe(204);
    expectProblem(await api.post(`/api/webhook_endpoints/${endpoint.id}/rotate-secret`, {}), 404, 'webhook_endpoint.not_found');
  });
});

describe('POST /api/webhook_endpoints/{id}/deliveries/{eventId}/redeliver', () => {
  it('when a succeeded delivery is redelivered, then 202 shows it pending and the receiver gets the same body and event id again, freshly signed', async () => {
    const { id, api, hook, endpoint } = await partnerWithEndpoint();
    const event = await hookup.publisher.publish(hookup.publisher.event(id));
    await waitForDelivery(api, endpoint.id, event.id, 'succeeded');

    const redelivered = await api.request('POST', `/api/webhook_endpoints/${endpoint.id}/deliveries/${event.id}/redeliver`);

    expect([redelivered.status, redelivered.contentType]).toEqual([202, 'application/json; charset=utf-8']);
    expect(redelivered.json).toEqual({
      '@type': 'WebhookDelivery',
      eventId: event.id,
      event: 'financing_case.status_changed',
      occurredAt: event.occurredAt,
      status: 'pending',
      dropReason: null,
      attemptCount: 1,
      nextAttemptAt: expect.stringMatching(ISO_TIME),
      createdAt: expect.stringMatching(ISO_TIME),
      completedAt: null,
      attempts: [expect.objectContaining({ attempt: 1, statusCode: 204, succeeded: true })],
    });
    const [first, second] = await waitForRequests(hook, event.id, 2);
    expect(second!.rawBody.equals(first!.rawBody)).toBe(true);
    expect(second!.headers['webhook-id']).toBe(event.id);
    expect(verifies(endpoint.secret, second!)).toBe(true);
    const delivery = await waitForDelivery(api, endpoint.id, event.id, 'succeeded');
    expect(delivery.attempts.map((attempt: { attempt: number; statusCode: number }) => [attempt.attempt, attempt.statusCode])).toEqual([
      [1, 204],
      [2, 204],
    ]);
  });

  it('when a redelivered event fails again, then it gets the retries of a new delivery, numbered on', async () => {
    const { id, api, hook, endpoint } = await partnerWithEndpoint();
    const event = await hookup.publisher.publish(hookup.publisher.event(id));
    await waitForDelivery(api, endpoint.id, event.id, 'succeeded');
    hook.respondWith((request) => ({ status: requestsFor(hook, event.id).indexOf(request) === 1 ? 500 : 204 }));

    expect((await api.request('POST', `/api/webhook_endpoints/${endpoint.id}/deliveries/${event.id}/redeliver`)).status).toBe(202);

    const delivery = await waitForDelivery(api, endpoint.id, event.id, 'succeeded');
    expect(delivery.attempts.map((attempt: { attempt: number; statusCode: number }) => [attempt.attempt, attempt.statusCode])).toEqual([
      [1, 204],
      [2, 500],
      [3, 204],
    ]);
    const [, failed, retried] = requestsFor(hook, event.id);
    expect(retried!.receivedAt - failed!.receivedAt).toBeGreaterThanOrEqual(1900);
  });

  it('when the delivery is still pending, the event unknown to the endpoint or the endpoint paused, then 409, 404 and 409 with their codes', async () => {
    const { id, api, hook, endpoint } = await partnerWithEndpoint();
    hook.respondWith(() => ({ status: 503 }));
    const event = await hookup.publisher.publish(hookup.publisher.event(id));
    await waitForRequests(hook, event.id, 1);
    const redeliver = (eventId: string) => api.request('POST', `/api/webhook_endpoints/${endpoint.id}/deliveries/${eventId}/redeliver`);

    expectProblem(await redeliver(event.id), 409, 'webhook_delivery.pending');
    expectProblem(await redeliver('no-such-event'), 404, 'webhook_delivery.not_found');
    expect((await api.patch(`/api/webhook_endpoints/${endpoint.id}`, { active: false })).status).toBe(200);
    expectProblem(await redeliver(event.id), 409, 'webhook_endpoint.paused');
  });

  it('when another partner redelivers an event of the endpoint, then it answers as the endpoint read does and nothing is sent', async () => {
    const { id, api, hook, endpoint } = await partnerWithEndpoint();
    const event = await hookup.publisher.publish(hookup.publisher.event(id));
    await waitForDelivery(api, endpoint.id, event.id, 'succeeded');
    const { stranger, expected } = await foreignAnswer(endpoint.id);

    expect(answerOf(await stranger.request('POST', `/api/webhook_endpoints/${endpoint.id}/deliveries/${event.id}/redeliver`))).toEqual(expected);
    await sleep(1000);
    expect(requestsFor(hook, event.id)).toHaveLength(1);
  });
});

describe('POST /api/webhook_endpoints/{id}/deliveries/redeliver', () => {
  it('when every failed event since a time is redelivered, then 202 counts them and exactly those reach the receiver again', async () => {
    const { id, api, hook, endpoint } = await partnerWithEndpoint();
    hook.respondWith(() => ({ status: 500 }));
    const older = await hookup.publisher.publish(hookup.publisher.event(id));
    await waitForRequests(hook, older.id, 1);
    await sleep(50);
    const since = new Date().toISOString();
    await sleep(50);
    const [first, second] = [await hookup.publisher.publish(hookup.publisher.event(id)), await hookup.publisher.publish(hookup.publisher.event(id))];
    await Promise.all([waitForRequests(hook, first.id, 1), waitForRequests(hook, second.id, 1)]);
    // Pausing drops the three while their retries wait; resuming replays nothing by itself.
    expect((await api.patch(`/api/webhook_endpoints/${endpoint.id}`, { active: false })).status).toBe(200);
    expect((await api.patch(`/api/webhook_endpoints/${endpoint.id}`, { active: true })).status).toBe(200);
    hook.respondWith(() => ({ status: 204 }));

    const redelivered = await api.post(`/api/webhook_endpoints/${endpoint.id}/deliveries/redeliver`, { since });

    expect([redelivered.status, redelivered.json]).toEqual([202, { redelivered: 2 }]);
    await Promise.all([waitForDelivery(api, endpoint.id, first.id, 'succeeded'), waitForDelivery(api, endpoint.id, second.id, 'succeeded')]);
    expect([requestsFor(hook, older.id).length, requestsFor(hook, first.id).length, requestsFor(hook, second.id).length]).toEqual([1, 2, 2]);
    const deliveries = (await api.get(`/api/webhook_endpoints/${endpoint.id}/deliveries`)).json as {
      eventId: string;
      status: string;
      dropReason: string | null;
    }[];
    expect(deliveries.find((delivery) => delivery.eventId === older.id)).toMatchObject({ status: 'dropped', dropReason: 'endpoint_paused' });
  });

  it('when since is missing or not a date and time, or the endpoint is paused, then 422 names since and a paused endpoint is 409', async () => {
    const { api, endpoint } = await partnerWithEndpoint();
    const redeliver = (body: unknown) => api.post(`/api/webhook_endpoints/${endpoint.id}/deliveries/redeliver`, body);

    expectViolation(await redeliver({}), 'since', 'validation.required');
    expectViolation(await redeliver({ since: 'yesterday' }), 'since', 'validation.format');
    expect((await redeliver({ since: new Date().toISOString() })).json).toEqual({ redelivered: 0 });
    expect((await api.patch(`/api/webhook_endpoints/${endpoint.id}`, { active: false })).status).toBe(200);
    expectProblem(await redeliver({ since: new Date().toISOString() }), 409, 'webhook_endpoint.paused');
  });

  it("when another partner redelivers the endpoint's failed events, then it answers as the endpoint read does", async () => {
    const { endpoint } = await partnerWithEndpoint();
    const { stranger, expected } = await foreignAnswer(endpoint.id);

    expect(answerOf(await stranger.post(`/api/webhook_endpoints/${endpoint.id}/deliveries/redeliver`, { since: '2020-01-01T00:00:00Z' }))).toEqual(expected);
  });
});

describe('POST /api/webhook_endpoints/{id}/test-event', () => {
  it('when a test event is requested, then 202 shows its pending delivery and only that endpoint gets a signed webhook_endpoint.test event', async () => {
    const { api, hook, endpoint } = await partnerWithEndpoint();
    const sibling = await receiver();
    await registerEndpoint(api, `${sibling.url}/sibling`);

    const sent = await api.request('POST', `/api/webhook_endpoints/${endpoint.id}/test-event`);

    expect([sent.status, sent.contentType]).toEqual([202, 'application/json; charset=utf-8']);
    expect(sent.json).toEqual({
      '@type': 'WebhookDelivery',
      eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      event: 'webhook_endpoint.test',
      occurredAt: expect.stringMatching(ISO_TIME),
      status: 'pending',
      dropReason: null,
      attemptCount: 0,
      nextAttemptAt: expect.stringMatching(ISO_TIME),
      createdAt: expect.stringMatching(ISO_TIME),
      completedAt: null,
      attempts: [],
    });
    const [request] = await waitForRequests(hook, sent.json.eventId, 1);
    expect(JSON.parse(request!.rawBody.toString('utf8'))).toEqual({
      id: sent.json.eventId,
      event: 'webhook_endpoint.test',
      occurredAt: sent.json.occurredAt,
      version: 1,
      data: { webhookEndpointId: endpoint.id },
    });
    expect(new Webhook(endpoint.secret).verify(request!.rawBody, standardHeaders(request!))).toEqual(JSON.parse(request!.rawBody.toString('utf8')));
    expect(request!.headers['x-webhook-signature']).toBe(hmacBase64(endpoint.secret, request!.rawBody));
    const delivery = await waitForDelivery(api, endpoint.id, sent.json.eventId, 'succeeded');
    expect(delivery.event).toBe('webhook_endpoint.test');
    await sleep(500);
    expect(sibling.requests).toEqual([]);
  });

  it("when the endpoint is paused, unknown or another partner's, then 409, 404 and the answer of the endpoint read, and nothing is sent", async () => {
    const { api, hook, endpoint } = await partnerWithEndpoint();
    const { stranger, expected } = await foreignAnswer(endpoint.id);

    expect(answerOf(await stranger.request('POST', `/api/webhook_endpoints/${endpoint.id}/test-event`))).toEqual(expected);
    expectProblem(await api.request('POST', '/api/webhook_endpoints/01J00000000000000000000000/test-event'), 404, 'webhook_endpoint.not_found');
    expect((await api.patch(`/api/webhook_endpoints/${endpoint.id}`, { active: false })).status).toBe(200);
    expectProblem(await api.request('POST', `/api/webhook_endpoints/${endpoint.id}/test-event`), 409, 'webhook_endpoint.paused');
    await sleep(500);
    expect(hook.requests).toEqual([]);
  });
});
