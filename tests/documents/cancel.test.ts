import { randomUUID } from 'node:crypto';
import { Bus } from '@rental/bus';
import { databaseNameOf } from '@rental/config';
import { createLogger } from '@rental/logger';
import { STATUS_CHANGED_EVENT, STATUS_CHANGED_SUBJECT, statusChangeSubject } from '@rental/proto';
import { waitFor } from '@rental/testkit';
import { PartnerWithCase, partnerWithCase, query, sharedStack } from './support/kit';

/** Publishes a status change the way case-workflow's outbox relay does. */
async function publishStatusChange(
  bus: Bus,
  owner: PartnerWithCase,
  data: { resourceType: 'quote' | 'contract'; transition: string; toStatus: string },
  id = randomUUID(),
  messageId = id,
): Promise<string> {
  const event = {
    id,
    event: STATUS_CHANGED_EVENT,
    occurredAt: new Date().toISOString(),
    version: 1,
    data: { financingCaseId: owner.caseId, quoteId: '01ARZ3NDEKTSV4RRFFQ69G5FAV', fromStatus: 'finance_review', status: data.toStatus, ...data },
    partnerId: owner.partner.id,
    environment: sharedStack().environment,
  };
  await bus.publish(statusChangeSubject(bus.subject(STATUS_CHANGED_SUBJECT), data), event, messageId);
  return id;
}

async function seedExchange(owner: PartnerWithCase): Promise<void> {
  await query(sharedStack(), 'INSERT INTO callback_requests (financing_case_id, partner_id) VALUES ($1, $2), ($1, $2)', [owner.caseId, owner.partner.id]);
  await query(
    sharedStack(),
    "INSERT INTO document_tokens (token_hash, financing_case_id, partner_id, purpose) VALUES (md5(random()::text), $1, $2, 'customer_upload')",
    [owner.caseId, owner.partner.id],
  );
}

const exchangeOf = async (owner: PartnerWithCase) => ({
  callbacks: (
    await query<{ status: string }>(sharedStack(), 'SELECT status FROM callback_requests WHERE financing_case_id = $1 ORDER BY id', [owner.caseId])
  ).map((row) => row.status),
  tokensValid: (await query(sharedStack(), 'SELECT id FROM document_tokens WHERE financing_case_id = $1 AND invalidated_at IS NULL', [owner.caseId])).length,
});

describe('status changes from case-workflow', () => {
  let bus: Bus;

  beforeAll(async () => {
    const stack = sharedStack();
    bus = new Bus({
      url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      environment: stack.environment,
      databaseName: databaseNameOf(stack.databaseUrl),
      serviceName: 'documents-test',
      log: createLogger('documents-test', 'warn'),
    });
    await bus.start();
  });
  afterAll(() => bus.close());

  it('when the quote of a case is canceled, then its document tokens are invalidated and its open callback requests closed', async () => {
    const owner = await partnerWithCase();
    const bystander = await partnerWithCase();
    await seedExchange(owner);
    await seedExchange(bystander);

    await publishStatusChange(bus, owner, { resourceType: 'quote', transition: 'cancel', toStatus: 'canceled' });

    await waitFor(async () => ((await exchangeOf(owner)).tokensValid === 0 ? true : undefined), { what: 'tokens invalidated' });
    expect(await exchangeOf(owner)).toEqual({ callbacks: ['closed', 'closed'], tokensValid: 0 });
    expect(await exchangeOf(bystander)).toEqual({ callbacks: ['open', 'open'], tokensValid: 1 });
  });

  it('when a contract is canceled or the quote changes otherwise, then the exchange stays open', async () => {
    const owner = await partnerWithCase();
    await seedExchange(owner);

    const contract = await publishStatusChange(bus, owner, { resourceType: 'contract', transition: 'cancel', toStatus: 'canceled' });
    const decision = await publishStatusChange(bus, owner, { resourceType: 'quote', transition: 'finance_accept', toStatus: 'finance_accepted' });
    // An event published after these is consumed after them: once it is applied, they were seen.
    const marker = await partnerWithCase();
    await seedExchange(marker);
    await publishStatusChange(bus, marker, { resourceType: 'quote', transition: 'cancel', toStatus: 'canceled' });
    await waitFor(async () => ((await exchangeOf(marker)).tokensValid === 0 ? true : undefined), { what: 'marker applied' });

    expect([contract, decision]).toHaveLength(2);
    expect(await exchangeOf(owner)).toEqual({ callbacks: ['open', 'open'], tokensValid: 1 });
  });

  it('when the same cancel event arrives twice, then it is applied once', async () => {
    const owner = await partnerWithCase();
    await seedExchange(owner);
    const eventId = randomUUID();
    await publishStatusChange(bus, owner, { resourceType: 'quote', transition: 'cancel', toStatus: 'canceled' }, eventId);
    await waitFor(async () => ((await query(sharedStack(), 'SELECT 1 FROM consumed_events WHERE event_id = $1', [eventId])).length === 1 ? true : undefined), {
      what: 'event consumed',
    });
    // A callback request opened after the cancel must survive a redelivery of the old event.
    await query(sharedStack(), 'INSERT INTO callback_requests (financing_case_id, partner_id) VALUES ($1, $2)', [owner.caseId, owner.partner.id]);

    // Another message id gets past the stream's duplicate window: to the consumer it is a redelivery.
    await publishStatusChange(bus, owner, { resourceType: 'quote', transition: 'cancel', toStatus: 'canceled' }, eventId, randomUUID());
    const marker = await partnerWithCase();
    await seedExchange(marker);
    await publishStatusChange(bus, marker, { resourceType: 'quote', transition: 'cancel', toStatus: 'canceled' });
    await waitFor(async () => ((await exchangeOf(marker)).tokensValid === 0 ? true : undefined), { what: 'marker applied' });

    expect((await exchangeOf(owner)).callbacks).toEqual(['closed', 'closed', 'open']);
  });
});
