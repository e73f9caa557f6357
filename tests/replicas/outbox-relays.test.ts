import { randomBytes, randomUUID } from 'node:crypto';
import { Bus, addOutboxRequestId, addOutboxTraceparent, createOutboxTable, enqueueOutbox, publishOutboxBatch } from '@rental/bus';
import { Knex, openDatabase } from '@rental/db';
import { createLogger } from '@rental/logger';
import { BackgroundWorker, outboxRelay } from '@rental/service-host';
import { dropDatabase, waitFor } from '@rental/testkit';

/**
 * Two replicas' outbox relays on one outbox (real Postgres). The bus is the test's recorder: it
 * shows the order the stream would get, and can hold a relay in the middle of a publish.
 */
const POSTGRES = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const BATCH = 200;
const log = createLogger('outbox-relays-test', 'silent');

let databaseUrl: string;
let db: Knex;
const relays: BackgroundWorker[] = [];

beforeAll(async () => {
  databaseUrl = `${POSTGRES}/rental_test_${randomBytes(4).toString('hex')}`;
  db = await openDatabase({
    url: databaseUrl,
    schema: 'relay_test',
    migrations: {
      '0001_outbox': {
        up: async (schema) => {
          await createOutboxTable(schema);
          await addOutboxRequestId(schema);
          await addOutboxTraceparent(schema);
        },
        down: async () => undefined,
      },
    },
    log,
  });
});

afterEach(async () => {
  await Promise.all(relays.splice(0).map((relay) => relay.stop()));
  await db('outbox').delete();
});

afterAll(async () => {
  await db?.destroy();
  if (databaseUrl) await dropDatabase(databaseUrl);
});

/** A bus that records what is published, in order; `hold()` keeps the next publish waiting until released. */
class RecordingBus {
  private gate?: { entered: () => void; release: Promise<void> };

  constructor(readonly published: string[]) {}

  isConnected(): boolean {
    return true;
  }

  /** `held` resolves once a publish waits at the gate; `release` lets it go on. */
  hold(): { held: Promise<void>; release: () => void } {
    let release = () => undefined as void;
    let entered = () => undefined as void;
    const held = new Promise<void>((resolve) => {
      entered = resolve;
    });
    this.gate = {
      entered,
      release: new Promise<void>((resolve) => {
        release = resolve;
      }),
    };
    return { held, release };
  }

  async publish(_subject: string, payload: { label: string }): Promise<void> {
    const gate = this.gate;
    if (gate) {
      this.gate = undefined;
      gate.entered();
      await gate.release;
    }
    this.published.push(payload.label);
  }
}

const asBus = (bus: RecordingBus | BatchBus) => bus as unknown as Bus;

/**
 * A bus whose publishes are acknowledged only once `expected` of them were sent (a relay that
 * waited for each ack before sending the next would wait forever), and whose acks of the labels in
 * `ackLost` are lost (stored, but the publish fails); it records what was sent, in order, and what
 * the stream holds, in order (a message id once).
 */
class BatchBus {
  readonly sent: string[] = [];
  readonly stored = new Map<string, string>();
  private readonly everySent: Promise<void>;
  private allSent = () => undefined as void;

  constructor(
    private readonly expected: number,
    private readonly ackLost: Set<string> = new Set(),
  ) {
    this.everySent = new Promise<void>((resolve) => {
      this.allSent = resolve;
    });
  }

  isConnected(): boolean {
    return true;
  }

  async publish(_subject: string, payload: { label: string }, messageId: string): Promise<void> {
    this.sent.push(payload.label);
    if (this.sent.length >= this.expected) this.allSent();
    await Promise.race([
      this.everySent,
      new Promise((_, reject) => setTimeout(() => reject(new Error('not every message was sent before the acks were awaited')), 5000)),
    ]);
    if (!this.stored.has(messageId)) this.stored.set(messageId, payload.label);
    if (this.ackLost.has(payload.label)) throw new Error(`no ack for ${payload.label}`);
  }
}

/** One committed outbox row, as a case change writes it. */
async function write(label: string): Promise<void> {
  await db.transaction((trx) => enqueueOutbox(trx, { messageId: randomUUID(), subject: 'rental.test.status_changed', payload: { label } }));
}

describe("the outbox relay's batch", () => {
  it('when a batch is published, then its messages are sent in the order written without waiting for each ack, and every row is marked published', async () => {
    const labels = Array.from({ length: 5 }, (_, index) => `row ${index}`);
    for (const label of labels) await write(label);
    const bus = new BatchBus(labels.length);

    expect(await publishOutboxBatch(db, asBus(bus), log, BATCH)).toBe(5);
    expect(bus.sent).toEqual(labels);
    expect(await db('outbox').whereNull('published_at').count('* as count')).toEqual([{ count: '0' }]);
  });

  it('when the ack of a message in the middle of a batch is lost, then only the rows before it are marked published, and the next batch sends from it again, dropped as duplicates, so the stream holds each row once in the order written', async () => {
    const labels = ['row 0', 'row 1', 'row 2', 'row 3'];
    for (const label of labels) await write(label);
    const failing = new BatchBus(labels.length, new Set(['row 1']));

    expect(await publishOutboxBatch(db, asBus(failing), log, BATCH)).toBe(0);
    expect(failing.sent).toEqual(labels);
    const unpublished = async () =>
      (await db('outbox').whereNull('published_at').orderBy('id').select('payload')).map((row: { payload: { label: string } }) => row.payload.label);
    expect(await unpublished()).toEqual(['row 1', 'row 2', 'row 3']);

    const retry = new BatchBus(3);
    // The same stream: what the failed batch stored is there already.
    for (const [messageId, label] of failing.stored) retry.stored.set(messageId, label);
    expect(await publishOutboxBatch(db, asBus(retry), log, BATCH)).toBe(3);
    expect(retry.sent).toEqual(['row 1', 'row 2', 'row 3']);
    expect([...retry.stored.values()]).toEqual(labels);
    expect(await unpublished()).toEqual([]);
  });
});

describe('outbox relays of two replicas', () => {
  it("when one relay is still publishing a case's earlier event, then the other does not publish the later one before it", async () => {
    const published: string[] = [];
    const slow = new RecordingBus(published);
    const { held, release } = slow.hold();
    let first: Promise<number> | undefined;
    let second: Promise<number> | undefined;
    try {
      await write('case-1 event 1');
      first = publishOutboxBatch(db, asBus(slow), log, BATCH);
      await held;
      await write('case-1 event 2');
      second = publishOutboxBatch(db, asBus(new RecordingBus(published)), log, BATCH);
      // Time for the second relay to publish event 2 if it could get past event 1 (proving a negative, so short).
      await new Promise((resolve) => setTimeout(resolve, 1000));
    } finally {
      release();
    }

    expect(await Promise.all([first, second])).toEqual([1, 1]);
    expect(published).toEqual(['case-1 event 1', 'case-1 event 2']);
  }, 60_000);

  it('when two relays run while rows are written, then every row is published once, in the order written', async () => {
    const published: string[] = [];
    for (const bus of [new RecordingBus(published), new RecordingBus(published)]) {
      const relay = outboxRelay({ db, bus: asBus(bus), log });
      relay.start();
      relays.push(relay);
    }
    const labels = Array.from({ length: 120 }, (_, index) => `row ${index}`);
    for (const label of labels) await write(label);

    await waitFor(() => (published.length >= labels.length ? true : undefined), { timeoutMs: 60_000, what: `${labels.length} rows` });
    expect(published).toEqual(labels);
    // A relay marks its batch published after the bus acknowledged it: the last mark may follow the last message.
    const unpublished = async () => (await db('outbox').whereNull('published_at').count('* as count')) as { count: string }[];
    await waitFor(async () => ((await unpublished())[0]!.count === '0' ? true : undefined), { timeoutMs: 10_000, what: 'every row marked published' });
    expect(await unpublished()).toEqual([{ count: '0' }]);
    expect(published).toEqual(labels);
  }, 120_000);
});
