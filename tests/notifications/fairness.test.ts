import { ApiClient, ApiResponse, Stack, WebhookReceiver, createTestPartner, shutdownStack, waitFor } from '@rental/testkit';
import { RegisteredEndpoint, bootOwnStack, registerEndpoint, requestsFor } from './support';
import { problemTypeOf } from '../support/problems';

/**
 * The webhook slots are shared between partners, and test events and redeliveries are budgeted
 * per partner. A stack of its own: 64 slots (WEBHOOK_CONCURRENCY's default, so a partner's share
 * is 32 and an endpoint's 16), a timeout long enough that an attempt to a hanging endpoint holds
 * its slot for the whole test, 60 test events and 5 redelivery requests a minute per partner.
 */
const TEST_EVENTS_PER_MINUTE = 60;
const REDELIVERIES_PER_MINUTE = 5;
const PARTNER_SHARE = 32;

let stack: Stack;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  stack = await bootOwnStack({
    env: {
      WEBHOOK_TIMEOUT_MS: '120000',
      WEBHOOK_TEST_EVENTS_PER_MINUTE: String(TEST_EVENTS_PER_MINUTE),
      WEBHOOK_REDELIVERIES_PER_MINUTE: String(REDELIVERIES_PER_MINUTE),
    },
  });
}, 180_000);

afterAll(async () => {
  // The hanging attempts end when their receivers close, so notifications stops at once.
  await Promise.all(receivers.map((receiver) => receiver.close()));
  if (stack) await shutdownStack(stack);
});

async function receiver(): Promise<WebhookReceiver> {
  const started = await WebhookReceiver.start();
  receivers.push(started);
  return started;
}

async function partner(): Promise<ApiClient> {
  return new ApiClient(stack.gatewayUrl, (await createTestPartner(stack)).key);
}

function expectToolRateLimited(response: ApiResponse): void {
  expect([response.status, response.contentType, response.json.type]).toEqual([
    429,
    'application/problem+json; charset=utf-8',
    problemTypeOf('webhook_endpoint.tool_rate_limited', stack.gatewayUrl),
  ]);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
}

describe('webhook delivery shared between partners', () => {
  it("when one partner's three endpoints never answer and it sends 210 test events, then the budget cuts them, it holds no more than its share of the slots, and another partner's webhook arrives while every one of its attempts still hangs", async () => {
    const acme = await partner();
    const hanging = [await receiver(), await receiver(), await receiver()];
    for (const hook of hanging) hook.respondWith(() => 'no_answer');
    const endpoints: RegisteredEndpoint[] = [];
    for (const [index, hook] of hanging.entries()) endpoints.push(await registerEndpoint(acme, `${hook.url}/never-${index}`));

    const answers: ApiResponse[] = [];
    for (let batch = 0; batch < 7; batch += 1) {
      answers.push(
        ...(await Promise.all(Array.from({ length: 30 }, (_, n) => acme.post(`/api/webhook_endpoints/${endpoints[(batch * 30 + n) % 3]!.id}/test-event`)))),
      );
    }
    expect(answers.filter((answer) => answer.status === 202)).toHaveLength(TEST_EVENTS_PER_MINUTE);
    const refused = answers.filter((answer) => answer.status !== 202);
    expect(refused).toHaveLength(210 - TEST_EVENTS_PER_MINUTE);
    refused.forEach(expectToolRateLimited);

    const held = () => hanging.reduce((sum, hook) => sum + hook.requests.length, 0);
    await waitFor(() => (held() >= PARTNER_SHARE ? true : undefined), { what: `${PARTNER_SHARE} attempts hanging at the first partner's endpoints` });

    const gamma = await partner();
    const prompt = await receiver();
    const endpoint = await registerEndpoint(gamma, `${prompt.url}/gamma`);
    const test = await gamma.post(`/api/webhook_endpoints/${endpoint.id}/test-event`);
    expect(test.status).toBe(202);
    const [arrived] = await waitFor(
      () => {
        const requests = requestsFor(prompt, test.json.eventId);
        return requests.length > 0 ? requests : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 25, what: "the other partner's webhook" },
    );

    // It came while the first partner's attempts all still hang (none has timed out to free a
    // slot), and that partner never held more than its share.
    expect(arrived!.headers['webhook-id']).toBe(test.json.eventId);
    expect([held(), hanging.map((hook) => hook.abandoned.length)]).toEqual([PARTNER_SHARE, [0, 0, 0]]);
    expect(hanging.map((hook) => hook.requests.length).every((count) => count <= PARTNER_SHARE / 2)).toBe(true);
  }, 120_000);

  it('when a partner asks for redeliveries faster than its budget, then 429 with Retry-After until the minute is over, and nothing is queued', async () => {
    const beta = await partner();
    const hook = await receiver();
    const endpoint = await registerEndpoint(beta, `${hook.url}/redeliveries`);
    const since = new Date(Date.now() - 3_600_000).toISOString();

    const answers = [];
    for (let request = 0; request <= REDELIVERIES_PER_MINUTE; request += 1)
      answers.push(await beta.post(`/api/webhook_endpoints/${endpoint.id}/deliveries/redeliver`, { since }));

    expect(answers.slice(0, REDELIVERIES_PER_MINUTE).map((answer) => [answer.status, answer.json])).toEqual(
      Array.from({ length: REDELIVERIES_PER_MINUTE }, () => [202, { redelivered: 0 }]),
    );
    expectToolRateLimited(answers[REDELIVERIES_PER_MINUTE]!);
    expectToolRateLimited(await beta.post(`/api/webhook_endpoints/${endpoint.id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`));
    // Another partner's budget is its own.
    const other = await partner();
    const otherEndpoint = await registerEndpoint(other, `${hook.url}/other`);
    expect((await other.post(`/api/webhook_endpoints/${otherEndpoint.id}/deliveries/redeliver`, { since })).status).toBe(202);
  });
});
