import { type Knex, addTraceColumns } from '@rental/db';
import { type Logger, currentOrigin } from '@rental/logger';
import { outboxBacklog, outboxOldestAge, outboxPublished } from '@rental/metrics';
import type { Bus } from './bus';

export interface OutboxMessage {
  /** Becomes the JetStream message id, so a republish after a crash is dropped as a duplicate. */
  messageId: string;
  subject: string;
  payload: unknown;
}

/** Called after a transaction that wrote outbox rows committed (the relay of this process wakes). */
const commitListeners = new Set<() => void>();

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
  await addTraceColumns(db, 'outbox', ['request_id']);
}

/** Migration step: the W3C traceparent of the work that wrote a message, carried to its consumers. */
export async function addOutboxTraceparent(db: Knex): Promise<void> {
  await addTraceColumns(db, 'outbox', ['traceparent']);
}

/**
 * Writes a message in the caller's business transaction. It is published after the commit
 * (the relay in this process wakes at once; others find it on their next poll).
 */
export async function enqueueOutbox(trx: Knex.Transaction, message: OutboxMessage): Promise<void> {
  await outboxInsert(trx, message);
}

/**
 * enqueueOutbox's insert, not yet run, for a caller that sends it along with other writes in one
 * statement (a data-modifying WITH) to save round trips; it must run in `trx`.
 */
export function outboxInsert(trx: Knex.Transaction, messages: OutboxMessage | OutboxMessage[]): Knex.QueryBuilder {
  const origin = currentOrigin();
  trx.executionPromise.then(
    () => commitListeners.forEach((listener) => listener()),
    () => undefined,
  );
  // Many messages go as one multi-row insert (one round trip), in the order given.
  return trx('outbox').insert(
    (Array.isArray(messages) ? messages : [messages]).map((message) => ({
      message_id: message.messageId,
      subject: message.subject,
      payload: JSON.stringify(message.payload),
      request_id: origin.requestId,
      traceparent: origin.traceparent,
    })),
  );
}

/** Calls `listener` after every commit that wrote outbox rows in this process; returns the unsubscribe. */
export function onOutboxCommit(listener: () => void): () => void {
  commitListeners.add(listener);
  return () => commitListeners.delete(listener);
}

/**
 * Publishes up to `batchSize` committed outbox rows in id order and marks them sent; the number
 * published, 0 when NATS is not connected or a publish failed. Relays of several replicas take
 * turns (a transaction-scoped advisory lock per outbox): with rows claimed side by side (SKIP
 * LOCKED), one relay could publish a case's later event while another still held its earlier
 * one, and the stream would carry them out of order. Rows are claimed FOR UPDATE as well, so even
 * a relay that does not take the lock never publishes a row twice.
 */
export async function publishOutboxBatch(db: Knex, bus: Bus, log: Logger, batchSize: number): Promise<number> {
  if (!bus.isConnected()) return 0;
  return db.transaction(async (trx) => {
    // Waits while another replica's relay publishes; the outbox is the schema's (search path).
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext('outbox-relay:' || current_schema()))");
    const rows: { id: string; message_id: string; subject: string; payload: unknown; request_id: string | null; traceparent: string | null }[] = await trx(
      'outbox',
    )
      .select('id', 'message_id', 'subject', 'payload', 'request_id', 'traceparent')
      .whereNull('published_at')
      .orderBy('id')
      .limit(batchSize)
      .forUpdate();
    // Sent back to back, the acks awaited together: JetStream stores the messages of one
    // connection in the order they were sent, so the stream holds them in the order written
    // without a round trip per row. Only the rows before the first failure count as published;
    // the next batch sends again from there, and a later row the stream stored already is
    // dropped as a duplicate by its message id (Nats-Msg-Id). A lost ack or connection fails
    // every message after it as well, so a case's events keep their order; only a message the
    // server refused by itself while storing later ones could land after them (the stream sets
    // no per-message condition, and one too large for NATS is never stored).
    const outcomes = await Promise.allSettled(
      rows.map((row) => bus.publish(row.subject, row.payload, row.message_id, { requestId: row.request_id, traceparent: row.traceparent })),
    );
    const firstFailure = outcomes.findIndex((outcome) => outcome.status === 'rejected');
    const sent = (firstFailure === -1 ? rows : rows.slice(0, firstFailure)).map((row) => row.id);
    if (sent.length > 0) await trx('outbox').whereIn('id', sent).update({ published_at: trx.fn.now() });
    outboxPublished.inc(sent.length);
    if (firstFailure !== -1)
      log.warn({ err: (outcomes[firstFailure] as PromiseRejectedResult).reason, pending: rows.length - sent.length }, 'outbox publish interrupted');
    return firstFailure === -1 ? sent.length : 0;
  });
}

/** Refreshes the backlog gauges and deletes rows published more than a day ago. */
export async function outboxHousekeeping(db: Knex): Promise<void> {
  const { rows } = await db.raw(
    'SELECT count(*) AS count, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0) AS age FROM outbox WHERE published_at IS NULL',
  );
  outboxBacklog.set(Number(rows[0].count));
  outboxOldestAge.set(Number(rows[0].age));
  await db('outbox').whereNotNull('published_at').where('published_at', '<', db.raw("now() - interval '1 day'")).delete();
}
