import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient, ReceivedRequest, Responder, WebhookReceiver, createTestPartner } from '@rental/testkit';
import type { StatusChangedEvent } from '@rental/proto';
import { apiAs, sharedStack } from '../support/shared-stack';
import type { RegisteredEndpoint } from './support';
import { EventPublisher, expectedBody, hmacBase64, registerEndpoint, requestsFor, sleep, waitForDelivery, waitForRequests } from './support';

interface Scenario {
  api: ApiClient;
  hook: WebhookReceiver;
  endpoint: RegisteredEndpoint;
  event: StatusChangedEvent;
}

let publisher: EventPublisher;
const receivers: WebhookReceiver[] = [];
const scenarios: Record<string, Scenario> = {};
let redirectTarget: WebhookReceiver;
let closedPortUrl: string;

async function scenario(responder: Responder, url?: (hook: WebhookReceiver) => string): Promise<Scenario> {
  const partner = await createTestPartner(sharedStack());
  const api = apiAs(partner.key);
  const hook = await WebhookReceiver.start();
  receivers.push(hook);
  hook.respondWith(responder);
  const endpoint = await registerEndpoint(api, url ? url(hook) : `${hook.url}/hook`);
  const event = await publisher.publish(publisher.event(partner.id));
  return { api, hook, endpoint, event };
}

function answerFirstThenRest(first: ReturnType<Responder>, rest: ReturnType<Responder>): Responder {
  let answered = 0;
  return () => (answered++ === 0 ? first : rest);
}

/** Gaps between consecutive requests, in ms. */
const gaps = (requests: ReceivedRequest[]) => requests.slice(1).map((request, index) => request.receivedAt - requests[index]!.receivedAt);

// Every scenario starts at once in beforeAll, so their waits overlap; each test then checks one.
beforeAll(async () => {
  publisher = await EventPublisher.connect(sharedStack());
  redirectTarget = await WebhookReceiver.start();
  receivers.push(redirectTarget);
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedPortUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/gone`;
  await new Promise((resolve) => closed.close(resolve));

  scenarios.alwaysFailing = await scenario(() => ({ status: 500 }));
  scenarios.redirecting = await scenario(() => ({ status: 302, headers: { Location: `${redirectTarget.url}/moved` } }));
  scenarios.slowFirst = await scenario(answerFirstThenRest({ status: 204, delayMs: 6000 }, { status: 204 }));
  scenarios.failingOnce = await scenario(answerFirstThenRest({ status: 500 }, { status: 200 }));
  scenarios.notFound = await scenario(() => ({ status: 404 }));
  scenarios.refused = await scenario(
    () => ({ status: 204 }),
    () => closedPortUrl,
  );
}, 30_000);

afterAll(async () => {
  await publisher.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

describe('retries', () => {
  it('when every attempt answers 500, then 4 attempts come 2, 4 and 8 s apart with the same body and id, and the delivery is dropped', async () => {
    const { api, hook, endpoint, event } = scenarios.alwaysFailing!;

    const requests = await waitForRequests(hook, event.id, 4, 20_000);
    const delivery = await waitForDelivery(api, endpoint.id, event.id, 'dropped', 5000);
    await sleep(1500);

    expect(requestsFor(hook, event.id)).toHaveLength(4);
    const [first, second, third] = gaps(requests);
    expect(first).toBeGreaterThanOrEqual(1950);
    expect(first).toBeLessThan(2900);
    expect(second).toBeGreaterThanOrEqual(3950);
    expect(second).toBeLessThan(4900);
    expect(third).toBeGreaterThanOrEqual(7950);
    expect(third).toBeLessThan(8900);
    expect(new Set(requests.map((request) => request.rawBody.toString('utf8')))).toEqual(new Set([expectedBody(event)]));
    expect(requests.map((request) => request.headers['x-webhook-signature'])).toEqual(Array(4).fill(hmacBase64(endpoint.secret, requests[0]!.rawBody)));
    expect(delivery).toMatchObject({ status: 'dropped', dropReason: 'retries_exhausted', attemptCount: 4, nextAttemptAt: null });
    expect(
      delivery.attempts.map((attempt: { attempt: number; statusCode: number; succeeded: boolean; error: string }) => [
        attempt.attempt,
        attempt.statusCode,
        attempt.succeeded,
        attempt.error,
      ]),
    ).toEqual([
      [1, 500, false, 'HTTP 500'],
      [2, 500, false, 'HTTP 500'],
      [3, 500, false, 'HTTP 500'],
      [4, 500, false, 'HTTP 500'],
    ]);
  }, 40_000);

  it('when the endpoint answers 302, then it is a failure, the Location is never requested, and it is retried like any failure', async () => {
    const { api, hook, endpoint, event } = scenarios.redirecting!;

    await waitForRequests(hook, event.id, 4, 20_000);
    const delivery = await waitForDelivery(api, endpoint.id, event.id, 'dropped', 5000);

    expect(redirectTarget.requests).toEqual([]);
    expect(delivery.attempts.map((attempt: { statusCode: number; error: string }) => [attempt.statusCode, attempt.error])).toEqual(
      Array(4).fill([302, 'redirect (302) not followed']),
    );
  }, 40_000);

  it('when the first answer takes 6 s, then that attempt is a timeout failure and the retry 2 s later succeeds', async () => {
    const { api, hook, endpoint, event } = scenarios.slowFirst!;

    const requests = await waitForRequests(hook, event.id, 2, 20_000);
    const delivery = await waitForDelivery(api, endpoint.id, event.id, 'succeeded', 5000);

    expect(requests).toHaveLength(2);
    // Measured between the attempts' own start times: arrival times at the receiver also hold the
    // first request's way there, which a loaded machine stretches past any fixed allowance.
    const [first, retry] = delivery.attempts.map((attempt: { attemptedAt: string }) => Date.parse(attempt.attemptedAt));
    expect(retry - first).toBeGreaterThanOrEqual(5000 + 2000);
    expect(retry - first).toBeLessThan(8000);
    expect(delivery.attempts).toEqual([
      { attempt: 1, attemptedAt: expect.any(String), statusCode: null, durationMs: expect.any(Number), succeeded: false, error: 'no answer within 5000 ms' },
      { attempt: 2, attemptedAt: expect.any(String), statusCode: 204, durationMs: expect.any(Number), succeeded: true, error: null },
    ]);
    expect(delivery.attempts[0].durationMs).toBeGreaterThanOrEqual(5000);
    expect(delivery.attempts[0].durationMs).toBeLessThan(5500);
  }, 40_000);

  it('when the first attempt fails and the retry answers 200, then the delivery succeeded after 2 attempts', async () => {
    const { api, hook, endpoint, event } = scenarios.failingOnce!;

    const delivery = await waitForDelivery(api, endpoint.id, event.id, 'succeeded', 10_000);

    expect(requestsFor(hook, event.id)).toHaveLength(2);
    expect(delivery.attempts.map((attempt: { statusCode: number; succeeded: boolean }) => [attempt.statusCode, attempt.succeeded])).toEqual([
      [500, false],
      [200, true],
    ]);
  });

  it('when the endpoint answers 404, then that is a failure too and retried until dropped', async () => {
    const { api, hook, endpoint, event } = scenarios.notFound!;

    const delivery = await waitForDelivery(api, endpoint.id, event.id, 'dropped', 20_000);

    expect(requestsFor(hook, event.id)).toHaveLength(4);
    expect(delivery.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([404, 404, 404, 404]);
  }, 30_000);

  it('when nothing listens at the URL, then each attempt records the connection error and the delivery is dropped after 4', async () => {
    const { api, endpoint, event } = scenarios.refused!;

    const delivery = await waitForDelivery(api, endpoint.id, event.id, 'dropped', 20_000);

    expect(delivery.attempts.map((attempt: { statusCode: number | null; error: string }) => [attempt.statusCode, attempt.error])).toEqual(
      Array(4).fill([null, 'connection refused']),
    );
  }, 30_000);
});
