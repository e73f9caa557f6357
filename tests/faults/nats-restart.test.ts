import { randomUUID } from 'node:crypto';
import { ApiClient, PrivateNats, Stack, TestPartner, WebhookReceiver, bootStack, createTestPartner, shutdownStack, waitFor } from '@rental/testkit';
import { registerEndpoint } from '../notifications/support';
import { rows } from '../support/database';
import { deliveredAgainstOutbox, outboxOfPartner, waitForEveryEvent } from './support/traffic';

/**
 * NATS goes away under a running stack and comes back: the outbox relay (case-workflow) and the
 * durable consumers (notifications, documents) must resume by themselves, without a restart of
 * any process, and every status change written meanwhile must reach the partner once per id.
 * production-faults.test.ts proves the relay with a listener of its own; this file follows the
 * events through the real consumers to the webhook and to documents.
 */
let nats: PrivateNats;
let stack: Stack;
let partner: TestPartner;
let api: ApiClient;
let receiver: WebhookReceiver;
const recoveries: { scenario: string; deliveredMs: number; events: number }[] = [];

beforeAll(async () => {
  nats = await PrivateNats.launch();
  stack = await bootStack({ env: { NATS_URL: nats.url } });
  partner = await createTestPartner(stack, { like: 'acme' });
  api = new ApiClient(stack.gatewayUrl, partner.key);
  receiver = await WebhookReceiver.start();
  await registerEndpoint(api, `${receiver.url}/nats`);
}, 120_000);

afterAll(async () => {
  process.stdout.write(`${JSON.stringify({ recoveries })}\n`);
  await receiver?.close();
  if (stack) await shutdownStack(stack);
  await nats?.dispose();
});

async function checkout(): Promise<string> {
  const cart = await api.post('/api/carts', { items: [{ productNumber: 'LAPTOP-NATS', quantity: 1, price: 1000, categorySlug: 'laptops' }] });
  const response = await api.post(
    `/api/carts/${cart.json.cartId}/checkout`,
    { duration: 36, financingType: 'leasing', customer: { company: 'Nats GmbH' } },
    { headers: { 'Idempotency-Key': randomUUID() } },
  );
  expect(response.status).toBe(201);
  return response.json.financeCaseId;
}

const pids = () => Object.values(stack.processes).map((process) => process.pid);

async function acceptAndCancel(caseId: string): Promise<void> {
  expect((await api.post(`/api/sandbox/financing_cases/${caseId}/simulate`, { scenario: 'finance_accepted' })).status).toBe(204);
  expect((await api.post(`/api/financing_cases/${caseId}/cancel`)).status).toBe(204);
}

/** After NATS is back: every event of the partner at the webhook once per id, and documents applied each quote cancel. */
async function expectEverythingArrived(scenario: string, back: number): Promise<void> {
  const written = await outboxOfPartner(stack.databaseUrl, partner.id);
  await waitForEveryEvent(receiver, written, 45_000);
  recoveries.push({ scenario, deliveredMs: Date.now() - back, events: written.length });
  const outcome = deliveredAgainstOutbox(receiver, written);
  expect({ lost: outcome.lost, unknown: outcome.unknown, mismatched: outcome.mismatched }).toEqual({ lost: [], unknown: [], mismatched: [] });
  const cancels = written.filter((event) => event.data.resourceType === 'quote' && event.data.transition === 'cancel').map((event) => event.id);
  await waitFor(
    async () => {
      const consumed = await rows(stack.databaseUrl, 'SELECT event_id FROM documents.consumed_events WHERE event_id = ANY($1)', [cancels]);
      return consumed.length === cancels.length ? true : undefined;
    },
    { timeoutMs: 15_000, what: 'documents to apply every cancel' },
  );
  expect(await rows(stack.databaseUrl, "SELECT id FROM case_workflow.outbox WHERE payload->>'partnerId' = $1 AND published_at IS NULL", [partner.id])).toEqual(
    [],
  );
}

/**
 * A case whose events all arrived; then NATS goes down (`takeDown`), the case is accepted and
 * canceled and another is checked out (five events wait in the outbox); NATS starts again and one
 * more case is checked out.
 */
async function changesAcrossOutage(takeDown: () => Promise<void>, scenario: string): Promise<void> {
  const caseId = await checkout();
  await waitForEveryEvent(receiver, await outboxOfPartner(stack.databaseUrl, partner.id), 15_000);
  const before = pids();

  await takeDown();
  // The API keeps working: changes are written with their events to the outbox.
  await acceptAndCancel(caseId);
  await checkout();
  expect(
    await rows(stack.databaseUrl, "SELECT id FROM case_workflow.outbox WHERE payload->>'partnerId' = $1 AND published_at IS NULL", [partner.id]),
  ).toHaveLength(5);
  await nats.start();
  const back = Date.now();
  await checkout();

  await expectEverythingArrived(scenario, back);
  expect(pids()).toEqual(before);
}

describe('NATS restarted under a running stack', () => {
  it('when NATS is down while cases change and comes back with its store, then relay and consumers resume by themselves and every event arrives once per id', async () => {
    await changesAcrossOutage(() => nats.stop(), 'restarted with its store');
  }, 90_000);

  it('when NATS comes back with an empty store (stream and durable consumers lost), then they are created again and the events written meanwhile arrive once per id', async () => {
    await changesAcrossOutage(() => nats.wipe(), 'restarted with an empty store');
  }, 90_000);
});
