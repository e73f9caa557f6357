import type { Knex } from '@rental/db';
import { type Logger, currentRequestId } from '@rental/logger';
import { outboxBacklog, outboxOldestAge, outboxPublished } from '@rental/metrics';
import type { Bus } from './bus';

export interface OutboxMessage {
  /** Becomes the JetStream message id, so a republish after a crash is dropped as a duplicate. */
  messageId: string;
  subject: string;
  payload: unknown;
}

const relays = new Set<OutboxRelay>();

/** Migration step: the outbox table in the schema of the service that uses it. */
export async function createOutboxTable(db: Knex): Promise<void> {
  await db.schema.createTable('outbox', (table) => {
    table.bigIncrements('id');
    table.uuid('message_id').notNullable().unique();
    table.string('subject', 200).notNullable();
    table.jsonb('payload').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    table.timestamp('published_at', { useTz: true });
    table.index(['published_at', 'id']);
  });
}

/** Migration step: the request id that caused a message, carried to its consumers. */
export async function addOutboxRequestId(db: Knex): Promise<void> {
  await db.schema.alterTable('outbox', (table) => {
    table.string('request_id', 128);
  });
}

/**
 * Writes a message in the caller's business transaction. It is published after the commit
 * (the relay in this process wakes at once; others find it on their next poll).
 */
export async function enqueueOutbox(trx: Knex.Transaction, message: OutboxMessage): Promise<void> {
  await trx('outbox').insert({ message_id: message.messageId, subject: message.subject, payload: JSON.stringify(message.payload), request_id: currentRequestId() ?? null });
  trx.executionPromise.then(() => relays.forEach((relay) => relay.wake()), () => undefined);
}

export interface OutboxRelayOptions {
  db: Knex;
  bus: Bus;
  log: Logger;
  batchSize?: number;
  pollMs?: number;
}

/**
 * Publishes committed outbox rows in id order and marks them sent. Rows are claimed with
 * FOR UPDATE SKIP LOCKED, so several replicas can run a relay without publishing a row twice.
 */
export class OutboxRelay {
  private running = false;
  private wakeUp?: () => void;
  private loop?: Promise<void>;
  private lastCleanup = 0;

  constructor(private readonly options: OutboxRelayOptions) {}

  start(): void {
    this.running = true;
    relays.add(this);
    this.loop = this.run();
  }

  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    relays.delete(this);
    this.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    const batchSize = this.options.batchSize ?? 200;
    while (this.running) {
      let published = 0;
      try {
        published = await this.publishBatch(batchSize);
        await this.housekeeping();
      } catch (error) {
        this.options.log.warn({ err: error }, 'outbox relay could not publish; retrying');
      }
      if (published < batchSize && this.running) await this.idle(this.options.pollMs ?? 500);
    }
  }

  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
  }

  private async publishBatch(batchSize: number): Promise<number> {
    if (!this.options.bus.isConnected()) return 0;
    return this.options.db.transaction(async (trx) => {
      const rows: { id: string; message_id: string; subject: string; payload: unknown; request_id: string | null }[] = await trx('outbox')
        .select('id', 'message_id', 'subject', 'payload', 'request_id')
        .whereNull('published_at')
        .orderBy('id')
        .limit(batchSize)
        .forUpdate()
        .skipLocked();
      const sent: string[] = [];
      let failure: unknown;
      // One at a time, so the stream holds the messages in the order they were written.
      for (const row of rows) {
        try {
          await this.options.bus.publish(row.subject, row.payload, row.message_id, row.request_id ?? undefined);
          sent.push(row.id);
        } catch (error) {
          failure = error;
          break;
        }
      }
      if (sent.length > 0) await trx('outbox').whereIn('id', sent).update({ published_at: trx.fn.now() });
      outboxPublished.inc(sent.length);
      if (failure) this.options.log.warn({ err: failure, pending: rows.length - sent.length }, 'outbox publish interrupted');
      return failure ? 0 : sent.length;
    });
  }

  private async housekeeping(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCleanup < 60_000) return;
    this.lastCleanup = now;
    const { rows } = await this.options.db.raw("SELECT count(*) AS count, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0) AS age FROM outbox WHERE published_at IS NULL");
    outboxBacklog.set(Number(rows[0].count));
    outboxOldestAge.set(Number(rows[0].age));
    await this.options.db('outbox').whereNotNull('published_at').where('published_at', '<', this.options.db.raw("now() - interval '1 day'")).delete();
  }
}
