import { ApiClient, Stack, createTestPartner, shutdownStack, waitFor } from '@rental/testkit';
import { createCaseViaGrpc } from '../support/cases';
import { bootOwnStack, deliveryFixture, outboxEvents, registerEndpoint, requestsFor, sleep, waitForDelivery, waitForRequests } from './support';

// Stops and kills notifications, so it runs on a stack of its own.
let stack: Stack;

beforeAll(async () => {
  stack = await bootOwnStack();
}, 120_000);

const hookup = deliveryFixture(() => stack);
const receiver = () => hookup.receiver();

afterAll(async () => {
  await shutdownStack(stack);
});

describe('notifications restarting', () => {
  it('when notifications is killed while a retry is scheduled, then after the restart the retry still comes and succeeds', async () => {
    const partner = await createTestPartner(stack);
    const api = new ApiClient(stack.gatewayUrl, partner.key);
    const hook = await receiver();
    let answered = 0;
    hook.respondWith(() => (answered++ === 0 ? { status: 500 } : { status: 204 }));
    const endpoint = await registerEndpoint(api, `${hook.url}/restart`);

    const event = await hookup.publisher.publish(hookup.publisher.event(partner.id));
    await waitForRequests(hook, event.id, 1);
    const scheduled = await waitFor(
      async () => {
        const [delivery] = (await api.get(`/api/webhook_endpoints/${endpoint.id}/deliveries`)).json;
        return delivery?.attemptCount === 1 ? delivery : undefined;
      },
      { intervalMs: 20, what: 'the retry to be scheduled' },
    );
    expect([scheduled.status, typeof scheduled.nextAttemptAt]).toEqual(['pending', 'string']);
    await stack.processes.notifications.kill('SIGKILL');
    stack.processes.notifications.start();
    await stack.processes.notifications.waitReady();

    const requests = await waitForRequests(hook, event.id, 2, 15_000);
    const delivery = await waitForDelivery(api, endpoint.id, event.id, 'succeeded', 5000);
    expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(1950);
    expect(delivery.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([500, 204]);
    await sleep(500);
    expect(requestsFor(hook, event.id)).toHaveLength(2);
  }, 60_000);

  it('when notifications is stopped, five status changes are made and it starts again, then every active endpoint gets all five once, with their ids', async () => {
    const partner = await createTestPartner(stack);
    const api = new ApiClient(stack.gatewayUrl, partner.key);
    const [first, second, paused] = [await receiver(), await receiver(), await receiver()];
    await registerEndpoint(api, `${first.url}/one`);
    await registerEndpoint(api, `${second.url}/two`);
    await registerEndpoint(api, `${paused.url}/paused`, false);

    await stack.processes.notifications.stop();
    // Real changes through case-workflow: created and submitted (three), accepted, canceled.
    const { financingCaseId: caseId } = await createCaseViaGrpc(stack, partner.id);
    expect((await api.post(`/api/sandbox/financing_cases/${caseId}/finance-decision`, { decision: 'accepted' })).status).toBe(204);
    expect((await api.post(`/api/financing_cases/${caseId}/cancel`, {})).status).toBe(204);
    const written = await waitFor(
      async () => {
        const events = await outboxEvents(stack.databaseUrl, caseId);
        return events.length >= 5 ? events : undefined;
      },
      { what: 'five status changes in the outbox' },
    );
    await sleep(1000);
    stack.processes.notifications.start();
    await stack.processes.notifications.waitReady();

    await waitFor(() => (first.requests.length >= 5 && second.requests.length >= 5 ? true : undefined), {
      timeoutMs: 15_000,
      what: 'five events at both endpoints',
    });
    await sleep(1000);
    const ids = written.map((event) => event.id).sort();
    expect(ids).toHaveLength(5);
    for (const hook of [first, second]) {
      expect(hook.requests.map((request) => request.headers['webhook-id']).sort()).toEqual(ids);
      expect(hook.requests.map((request) => JSON.parse(request.rawBody.toString('utf8')).id).sort()).toEqual(ids);
    }
    expect(paused.requests).toEqual([]);
  }, 60_000);
});
