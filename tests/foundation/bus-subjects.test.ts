import { randomBytes, randomUUID } from 'node:crypto';
import { AckPolicy, DeliverPolicy, JetStreamManager, NatsConnection, connect } from 'nats';
import { Bus } from '@rental/bus';
import { createLogger } from '@rental/logger';
import { QUOTE_CANCELED_SUBJECT, STATUS_CHANGED_SUBJECT, statusChangeSubject } from '@rental/proto';
import { waitFor } from '@rental/testkit';

// Status changes go to one subject per resource type and transition; a consumer filters the ones
// it acts on, and still reads the durable kept for upgrades (of the single subject) while it exists. A stream
// of its own (environment and database name of this file), deleted at the end.

const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const databaseName = `bus_subjects_${randomBytes(4).toString('hex')}`;
let bus: Bus;
let connection: NatsConnection;
let manager: JetStreamManager;

beforeAll(async () => {
  bus = new Bus({ url: natsUrl, environment: 'sandbox', databaseName, serviceName: 'bus-subjects-test', log: createLogger('bus-subjects-test', 'error') });
  await bus.start();
  connection = await connect({ servers: natsUrl });
  manager = await connection.jetstreamManager();
});

afterAll(async () => {
  await bus.close();
  await manager.streams.delete(bus.stream);
  await connection.close();
});

const change = (transition: string) => ({ resourceType: 'quote', transition });

describe('one subject per status change', () => {
  it('when a consumer filters quote cancellations and names a durable kept for upgrades that exists, then it gets the cancellations and everything on the single subject it filters, nothing else', async () => {
    await manager.consumers.add(bus.stream, {
      durable_name: 'single-subject-cancels',
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: bus.subject(STATUS_CHANGED_SUBJECT),
    });
    const base = bus.subject(STATUS_CHANGED_SUBJECT);
    await bus.publish(base, { label: 'single subject, an acceptance' }, randomUUID());
    await bus.publish(statusChangeSubject(base, change('finance_accept')), { label: 'acceptance' }, randomUUID());
    await bus.publish(statusChangeSubject(base, change('cancel')), { label: 'cancellation' }, randomUUID());
    await bus.publish(statusChangeSubject(base, { resourceType: 'contract', transition: 'cancel' }), { label: 'contract cancellation' }, randomUUID());

    const received: string[] = [];
    bus.consume<{ label: string }>({
      subject: QUOTE_CANCELED_SUBJECT,
      durable: 'cancels',
      upgradeDurable: { durable: 'single-subject-cancels', subject: STATUS_CHANGED_SUBJECT },
      handler: async ({ data }) => {
        received.push(data.label);
      },
    });

    await waitFor(() => (received.length >= 2 ? true : undefined), { timeoutMs: 10_000, what: "the cancellation and the single subject's message" });
    // Time for anything else to (wrongly) arrive.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(received.sort()).toEqual(['cancellation', 'single subject, an acceptance']);
    expect((await manager.consumers.info(bus.stream, 'single-subject-cancels')).config.filter_subject).toBe(base);
    expect((await manager.consumers.info(bus.stream, 'cancels')).config.filter_subject).toBe(bus.subject(QUOTE_CANCELED_SUBJECT));
  });

  it('when the durable kept for upgrades does not exist, then it is not created and the consumer reads its own subject', async () => {
    const base = bus.subject(STATUS_CHANGED_SUBJECT);
    const received: string[] = [];
    bus.consume<{ label: string }>({
      subject: statusChangeSubject(STATUS_CHANGED_SUBJECT, change('expire')),
      durable: 'expiries',
      upgradeDurable: { durable: 'never-created', subject: STATUS_CHANGED_SUBJECT },
      handler: async ({ data }) => {
        received.push(data.label);
      },
    });
    await bus.publish(statusChangeSubject(base, change('expire')), { label: 'expiry' }, randomUUID());

    await waitFor(() => (received.length >= 1 ? true : undefined), { timeoutMs: 10_000, what: 'the expiry' });
    expect(received).toEqual(['expiry']);
    const durables: string[] = [];
    for await (const consumer of await manager.consumers.list(bus.stream)) durables.push(consumer.name);
    expect(durables.sort()).toEqual(['cancels', 'expiries', 'single-subject-cancels']);
  });

  it('when a resource type or transition is not a subject token, then no subject is made of it', () => {
    expect(() => statusChangeSubject(STATUS_CHANGED_SUBJECT, change('finance.accept'))).toThrow('must be subject tokens');
    expect(() => statusChangeSubject(STATUS_CHANGED_SUBJECT, change('*'))).toThrow('must be subject tokens');
    expect(statusChangeSubject('rental.x.case.status_changed', { resourceType: 'quote_request', transition: 'create_quote' })).toBe(
      'rental.x.case.status_changed.quote_request.create_quote',
    );
  });
});
