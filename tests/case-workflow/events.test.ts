import { statusChangedEvent } from '@rental/proto';
import { waitFor } from '@rental/testkit';
import { EventListener, Owner, eventsOf, expectApplied, newCase, newPartner, query, simulate } from './support/kit';

let owner: Owner;
let listener: EventListener;

beforeAll(async () => {
  owner = await newPartner();
  listener = await EventListener.start();
});
afterAll(() => listener.close());

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The 128 bits of a ULID written as a UUID. */
function uuidOfUlid(id: string): string {
  const value = [...id].reduce((acc, char) => acc * 32n + BigInt(CROCKFORD.indexOf(char)), 0n);
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const decide = (caseId: string, decision: string) => owner.api.post(`/api/sandbox/financing_cases/${caseId}/finance-decision`, { decision });

async function published(caseId: string, count: number) {
  return waitFor(() => (listener.of(caseId).length >= count ? listener.of(caseId) : undefined), {
    what: `${count} events of ${caseId} on the bus`,
    timeoutMs: 15_000,
  });
}

/** Every event continues where the previous one of its resource left off. */
function expectContinuous(events: { data: { resourceType: string; fromStatus: string; toStatus: string } }[]) {
  const last = new Map<string, string>();
  for (const { data } of events) {
    expect([data.resourceType, data.fromStatus]).toEqual([data.resourceType, last.get(data.resourceType) ?? 'new']);
    last.set(data.resourceType, data.toStatus);
  }
}

describe('financing_case.status_changed on the bus', () => {
  it('when a case goes through its life, then every change arrives once on the bus, in order, exactly as written to the outbox', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(decide(caseId, 'accepted'));
    await expectApplied(simulate(owner, caseId, 'wait_for_signing'));
    await expectApplied(owner.api.post(`/api/financing_cases/${caseId}/cancel`));

    const outbox = await eventsOf(caseId);
    expect(outbox.map((event) => `${event.data.resourceType}:${event.data.transition}`)).toEqual([
      'quote:create',
      'quote:accept_by_customer',
      'quote:request_finance_review',
      'quote:finance_accept',
      'contract:create',
      'quote:cancel',
      'contract:cancel',
    ]);
    const onBus = await published(caseId, 7);
    expect(onBus).toEqual(outbox);
    // Events of a later case arrive after every earlier one: once they are here, a duplicate would have been too.
    await published((await newCase(owner)).caseId, 3);
    expect(listener.of(caseId)).toHaveLength(7);
    for (const event of onBus) expect(statusChangedEvent.parse(event)).toEqual(event);
    const times = onBus.map((event) => Date.parse(event.occurredAt));
    expect(times.every((time, index) => index === 0 || time > times[index - 1]!)).toBe(true);
    expect(new Set(onBus.map((event) => event.id)).size).toBe(7);
    expect(await query("SELECT count(*)::int AS n FROM outbox WHERE payload->'data'->>'financingCaseId' = $1 AND published_at IS NULL", [caseId])).toEqual([
      { n: 0 },
    ]);
  });

  it('when an event is published, then its JetStream message id is the event id (as a UUID), so a republish is dropped', async () => {
    const { caseId } = await newCase(owner, { submitFinancing: false });
    const [event] = await eventsOf(caseId);
    const [row] = await query<{ message_id: string }>("SELECT message_id FROM outbox WHERE payload->>'id' = $1", [event!.id]);
    expect(row!.message_id.toLowerCase()).toBe(uuidOfUlid(event!.id));
    await published(caseId, 1);
    await listener.republish(event!, row!.message_id);
    await published((await newCase(owner)).caseId, 3);
    expect(listener.of(caseId)).toEqual([event]);
  });
});

describe('the request id in events', () => {
  it('when a change is made over HTTP with an X-Request-Id, then its event carries that id on the bus, so logs of every process can be joined', async () => {
    const { caseId } = await newCase(owner);
    const requestId = `trace-${Date.now()}`;
    await expectApplied(
      owner.api.post(`/api/sandbox/financing_cases/${caseId}/finance-decision`, { decision: 'accepted' }, { headers: { 'X-Request-Id': requestId } }),
    );

    const events = await published(caseId, 4);
    // The case was created over gRPC with the test kit's request id; the decision came over HTTP.
    expect(events.map((event) => [event.data.transition, listener.requestIds.get(event.id)])).toEqual([
      ['create', 'test-create-case'],
      ['accept_by_customer', 'test-create-case'],
      ['request_finance_review', 'test-create-case'],
      ['finance_accept', requestId],
    ]);
    expect(
      await query("SELECT request_id FROM outbox WHERE payload->'data'->>'financingCaseId' = $1 AND payload->'data'->>'transition' = $2", [
        caseId,
        'finance_accept',
      ]),
    ).toEqual([{ request_id: requestId }]);
  });
});

describe('concurrent changes of one case', () => {
  it('when two sandbox decisions hit one case at the same instant, then one applies, the other is refused, and there is exactly one decision event', async () => {
    const { caseId } = await newCase(owner);
    const answers = await Promise.all([decide(caseId, 'accepted'), decide(caseId, 'rejected')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([204, 422]);
    const winner = answers[0]!.status === 204 ? 'finance_accepted' : 'finance_rejected';
    expect((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status).toBe(winner);
    const events = await eventsOf(caseId);
    expect(events).toHaveLength(4);
    expect(events[3]!.data).toEqual(expect.objectContaining({ fromStatus: 'finance_review', toStatus: winner, status: winner }));
    expect(await published(caseId, 4)).toHaveLength(4);
  });

  it('when many different changes race on one case, then the events form one unbroken chain matching the final state', async () => {
    const { caseId } = await newCase(owner);
    const answers = await Promise.all([
      decide(caseId, 'accepted'),
      decide(caseId, 'rejected'),
      simulate(owner, caseId, 'finance_rejected'),
      simulate(owner, caseId, 'signed'),
      simulate(owner, caseId, 'wait_for_signing'),
      owner.api.post(`/api/financing_cases/${caseId}/cancel`),
      simulate(owner, caseId, 'finance_accepted'),
    ]);
    expect(answers.every((answer) => answer.status === 204 || answer.status === 422)).toBe(true);
    const events = await eventsOf(caseId);
    expectContinuous(events);
    const finalQuote = [...events].reverse().find((event) => event.data.resourceType === 'quote')!.data.toStatus;
    expect((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status).toBe(finalQuote);
    const lastContract = [...events].reverse().find((event) => event.data.resourceType === 'contract');
    const [contract] = await query<{ status: string }>('SELECT status FROM contracts WHERE financing_case_id = $1', [caseId]);
    expect(contract?.status).toBe(lastContract?.data.toStatus);
    const times = events.map((event) => Date.parse(event.occurredAt));
    expect(times.every((time, index) => index === 0 || time > times[index - 1]!)).toBe(true);
    expect(await published(caseId, events.length)).toEqual(events);
  });
});
