import { PrivateNats, Stack, bootStack, shutdownStack, waitFor } from '@rental/testkit';
import { createCaseViaGrpc } from '../support/cases';
import { EventListener, Owner, eventsOf, expectApplied, expectProblem, newCase, newPartner, query } from './support/kit';

/** A production stack of its own, on a NATS server of its own that the tests stop and start. */
let nats: PrivateNats;
let stack: Stack;
let owner: Owner;

beforeAll(async () => {
  nats = await PrivateNats.launch();
  stack = await bootStack({ environment: 'production', env: { NATS_URL: nats.url, WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
  owner = await newPartner(stack);
}, 120_000);

afterAll(async () => {
  if (stack) await shutdownStack(stack);
  await nats?.dispose();
});

describe('outside the sandbox', () => {
  it('when the sandbox operations are called in production, then 404 and nothing is applied, whatever the body or key', async () => {
    const { caseId } = await newCase(owner, {}, stack);
    const attempts = [
      await owner.api.post(`/api/sandbox/financing_cases/${caseId}/finance-decision`, { decision: 'accepted' }),
      await owner.api.post(`/api/sandbox/financing_cases/${caseId}/simulate`, { scenario: 'finance_accepted' }),
      await owner.api.post(`/api/sandbox/financing_cases/${caseId}/simulate`, { scenario: 'reset', data: { targetStatus: 'finance_review' } }),
      await owner.api.post(`/api/sandbox/financing_cases/${caseId}/simulate`, { scenario: 'no-such-scenario' }),
      await owner.api.post(`/api/sandbox/financing_cases/${caseId}/advance-clock`, { by: '15d' }),
      await owner.api.post(`/api/sandbox/financing_cases/${caseId}/advance-clock`, { by: 'never' }),
      await owner.readOnly.post(`/api/sandbox/financing_cases/${caseId}/finance-decision`, {}),
    ];
    for (const response of attempts) {
      expectProblem(response, 404, 'sandbox.not_available', stack);
      expect(response.json.detail).toBe('The sandbox endpoints exist only in the sandbox environment.');
    }
    expect((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status).toBe('finance_review');
    expect(await eventsOf(caseId, stack)).toHaveLength(3);
    expect(await query('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId], stack)).toEqual([]);
  });

  it('when a case changes in production, then its events say so', async () => {
    const { caseId } = await newCase(owner, {}, stack);
    await expectApplied(owner.api.post(`/api/financing_cases/${caseId}/cancel`));
    expect((await eventsOf(caseId, stack)).map((event) => [event.environment, event.data.transition])).toEqual([
      ['production', 'create'],
      ['production', 'accept_by_customer'],
      ['production', 'request_finance_review'],
      ['production', 'cancel'],
    ]);
  });
});

/** The case's events still in the outbox, not yet published to NATS. */
const unpublishedEvents = (caseId: string) =>
  query("SELECT count(*)::int AS n FROM outbox WHERE payload->'data'->>'financingCaseId' = $1 AND published_at IS NULL", [caseId], stack);

describe('NATS down while cases change', () => {
  it('when NATS is stopped, three status changes are made and NATS is started, then all three events arrive once each, in order of occurredAt', async () => {
    await nats.stop();
    const created = await createCaseViaGrpc(stack, owner.partner.id, { submitFinancing: true });
    const written = await eventsOf(created.financingCaseId, stack);
    expect(written.map((event) => event.data.transition)).toEqual(['create', 'accept_by_customer', 'request_finance_review']);
    expect(await unpublishedEvents(created.financingCaseId)).toEqual([{ n: 3 }]);

    await nats.start();
    const listener = await EventListener.start({ ...stack, natsUrl: nats.url });
    try {
      await waitFor(() => (listener.of(created.financingCaseId).length >= 3 ? true : undefined), {
        timeoutMs: 30_000,
        what: 'the three events after NATS is back',
      });
      // A later case's events come after every earlier message: once they are here, no duplicate is still on its way.
      const marker = await createCaseViaGrpc(stack, owner.partner.id, { submitFinancing: false });
      await waitFor(() => (listener.of(marker.financingCaseId).length === 1 ? true : undefined), { timeoutMs: 15_000, what: 'the marker event' });

      const received = listener.of(created.financingCaseId);
      expect(received).toEqual(written);
      const times = received.map((event) => Date.parse(event.occurredAt));
      expect(times[0]! < times[1]! && times[1]! < times[2]!).toBe(true);
      expect(await unpublishedEvents(created.financingCaseId)).toEqual([{ n: 0 }]);
    } finally {
      await listener.close();
    }
  });
});

describe('documents down', () => {
  it('when the documents service does not answer, then reading cases is 503 problem+json; once it is back they answer again', async () => {
    const { caseId } = await newCase(owner, {}, stack);
    await stack.processes.documents.stop();
    try {
      const one = await owner.api.get(`/api/financing_cases/${caseId}`);
      const list = await owner.api.get('/api/financing_cases');
      expectProblem(one, 503, 'dependency.unavailable', stack);
      expectProblem(list, 503, 'dependency.unavailable', stack);
      expect((await owner.api.get(`/api/contracts/01JABCDEFGHJKMNPQRSTVWXYZ0`)).status).toBe(404);
      expect((await owner.api.post(`/api/financing_cases/${caseId}/cancel`)).status).toBe(204);
    } finally {
      stack.processes.documents.start();
      await stack.processes.documents.waitReady();
    }
    // The gRPC channel reconnects with a short backoff; until then a read may still be 503.
    const back = await waitFor(
      async () => {
        const response = await owner.api.get(`/api/financing_cases/${caseId}`);
        return response.status === 200 ? response.json : undefined;
      },
      { timeoutMs: 20_000, what: 'the case to be readable again' },
    );
    expect(back.status).toBe('canceled');
  });
});
