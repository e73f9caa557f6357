import { AttemptRecord, DeliveryJob, DeliveryNext, DeliveryStore, TransportResult, WebhookRequest, attemptDelivery, judgeResponse } from './delivery';
import type { HostResolver } from './ports';

function fakeStore() {
  const completed: { attempt?: AttemptRecord; next: DeliveryNext }[] = [];
  const store: DeliveryStore = {
    claimDue: async () => [],
    complete: async (_job, attempt, next) => {
      completed.push({ attempt, next });
    },
    nextDueAt: async () => undefined,
  };
  return { store, completed };
}

function fakeTransport(answer: TransportResult) {
  const requests: WebhookRequest[] = [];
  return { requests, transport: { post: async (request: WebhookRequest) => (requests.push(request), answer) } };
}

const resolverAnswering = (...addresses: string[]): HostResolver => ({
  resolve: async () => addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) })),
});

const job = (overrides: Partial<DeliveryJob> = {}, endpoint: Partial<DeliveryJob['endpoint']> = {}): DeliveryJob => ({
  deliveryId: '1',
  eventId: 'evt-1',
  attempt: 1,
  attemptsBeforeRedelivery: 0,
  dueAt: new Date('2026-01-01T09:59:59.500Z'),
  body: '{"id":"evt-1"}',
  occurredAt: new Date('2026-01-01T09:59:59.000Z'),
  partnerId: 'P1',
  endpoint: { id: 'E1', url: 'https://hooks.partner.example/in', secret: 'whsec_c2VjcmV0', active: true, deleted: false, ...endpoint },
  ...overrides,
});

const NOW = new Date('2026-01-01T10:00:00.000Z');
const policy = { allowPrivate: false };

function deps(answer: TransportResult, resolver = resolverAnswering('93.184.216.34')) {
  const { store, completed } = fakeStore();
  const { transport, requests } = fakeTransport(answer);
  return { completed, requests, deps: { store, transport, resolver, policy, timeoutMs: 5000, now: () => NOW } };
}

/** What each of four failed attempts in a row leads to: the next 2, 4 and 8 s later, then the delivery is dropped. */
const SCHEDULE_AFTER_FAILURES: DeliveryNext[] = [
  { status: 'pending', nextAttemptAt: new Date(NOW.getTime() + 2000) },
  { status: 'pending', nextAttemptAt: new Date(NOW.getTime() + 4000) },
  { status: 'pending', nextAttemptAt: new Date(NOW.getTime() + 8000) },
  { status: 'dropped', reason: 'retries_exhausted' },
];

/** The next step after each of the jobs' attempts when the endpoint answers 500. */
async function nextsAfterFailing(jobs: DeliveryJob[]): Promise<DeliveryNext[]> {
  const nexts: DeliveryNext[] = [];
  for (const failing of jobs) nexts.push((await attemptDelivery(failing, deps({ statusCode: 500, durationMs: 3 }).deps)).next);
  return nexts;
}

describe('judgeResponse', () => {
  it('when the answer is 2xx, then it succeeded; 3xx, 4xx and 5xx failed, a redirect named as such', () => {
    expect([200, 204, 299].map((status) => judgeResponse(status).succeeded)).toEqual([true, true, true]);
    expect(judgeResponse(302)).toEqual({ succeeded: false, error: 'redirect (302) not followed' });
    expect(judgeResponse(410)).toEqual({ succeeded: false, error: 'HTTP 410' });
    expect(judgeResponse(503)).toEqual({ succeeded: false, error: 'HTTP 503' });
  });
});

describe('attemptDelivery', () => {
  it('when the endpoint answers 204, then the attempt is recorded as succeeded and the delivery is done', async () => {
    const { deps: d, completed, requests } = deps({ statusCode: 204, durationMs: 12 });
    await attemptDelivery(job(), d);
    expect(completed).toEqual([{ attempt: { attempt: 1, startedAt: NOW, durationMs: 12, statusCode: 204, succeeded: true }, next: { status: 'succeeded' } }]);
    expect(requests[0]).toMatchObject({ body: '{"id":"evt-1"}', addresses: [{ address: '93.184.216.34', family: 4 }], timeoutMs: 5000 });
    expect(requests[0]?.headers['webhook-id']).toBe('evt-1');
  });

  it('when attempts fail, then the next is due 2, 4 and 8 s after the failure and the fourth failure drops the delivery', async () => {
    expect(await nextsAfterFailing([1, 2, 3, 4].map((attempt) => job({ attempt })))).toEqual(SCHEDULE_AFTER_FAILURES);
  });

  it('when a redelivery of a delivery with four attempts fails, then its retries follow the schedule again from its fifth attempt on', async () => {
    expect(await nextsAfterFailing([5, 6, 7, 8].map((attempt) => job({ attempt, attemptsBeforeRedelivery: 4 })))).toEqual(SCHEDULE_AFTER_FAILURES);
  });

  it('when the answer is a redirect or no answer came, then it is a failed attempt with the reason', async () => {
    const redirect = deps({ statusCode: 302, durationMs: 4 });
    await attemptDelivery(job(), redirect.deps);
    expect(redirect.completed[0]?.attempt).toMatchObject({ succeeded: false, statusCode: 302, error: 'redirect (302) not followed' });
    const timeout = deps({ error: 'no answer within 5000 ms', durationMs: 5001 });
    await attemptDelivery(job(), timeout.deps);
    expect(timeout.completed[0]?.attempt).toMatchObject({ succeeded: false, error: 'no answer within 5000 ms', durationMs: 5001 });
    expect(timeout.completed[0]?.attempt?.statusCode).toBeUndefined();
  });

  it('when the name now resolves to a private address (DNS rebinding), then nothing is sent and the attempt fails', async () => {
    const { deps: d, completed, requests } = deps({ statusCode: 204, durationMs: 1 }, resolverAnswering('93.184.216.34', '10.0.0.7'));
    await attemptDelivery(job(), d);
    expect(requests).toEqual([]);
    expect(completed[0]?.attempt).toMatchObject({
      succeeded: false,
      error: 'The URL must be publicly reachable: hooks.partner.example resolves to 10.0.0.7, which is a private address.',
    });
    expect(completed[0]?.next).toEqual({ status: 'pending', nextAttemptAt: new Date(NOW.getTime() + 2000) });
  });

  it('when the endpoint was paused or deleted after the event, then nothing is sent and the delivery is dropped without an attempt', async () => {
    const paused = deps({ statusCode: 204, durationMs: 1 });
    await attemptDelivery(job({}, { active: false }), paused.deps);
    const deleted = deps({ statusCode: 204, durationMs: 1 });
    await attemptDelivery(job({}, { active: false, deleted: true }), deleted.deps);
    expect([paused.requests, deleted.requests]).toEqual([[], []]);
    expect([paused.completed, deleted.completed]).toEqual([
      [{ attempt: undefined, next: { status: 'dropped', reason: 'endpoint_paused' } }],
      [{ attempt: undefined, next: { status: 'dropped', reason: 'endpoint_deleted' } }],
    ]);
  });

  it('when an http URL was registered while private URLs were allowed and they no longer are, then the attempt fails without sending', async () => {
    const { deps: d, completed, requests } = deps({ statusCode: 204, durationMs: 1 });
    await attemptDelivery(job({}, { url: 'http://127.0.0.1:9/in' }), d);
    expect(requests).toEqual([]);
    expect(completed[0]?.attempt).toMatchObject({ succeeded: false, error: 'The URL must use https.' });
  });
});
