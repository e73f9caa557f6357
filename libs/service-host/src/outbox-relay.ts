import { Bus, onOutboxCommit, outboxHousekeeping, publishOutboxBatch } from '@rental/bus';
import type { Knex } from '@rental/db';
import type { Logger } from '@rental/logger';
import { BackgroundWorker, periodicJob } from './jobs';

const BATCH_SIZE = 200;
const POLL_MS = 500;
/**
 * Under load a round a commit wakes waits until this long after the previous one began: a round
 * costs five statements whether it publishes one commit's rows or many, and at a hundred checkouts
 * a second it ran once per commit. An event reaches the stream at most this much later.
 */
const MIN_WOKEN_GAP_MS = 10;
const HOUSEKEEPING_EVERY_MS = 60_000;

/**
 * The relay of a service's outbox: publishes committed rows at once when this process committed
 * them (others' on the next poll), a full batch again at once; and, once a minute, refreshes the
 * backlog gauges and deletes rows published a day ago. Safe in every replica: the relays take
 * turns (publishOutboxBatch), so rows reach the stream in the order they were written.
 */
export function outboxRelay({ db, bus, log }: { db: Knex; bus: Bus; log: Logger }): BackgroundWorker {
  const relay = periodicJob({
    name: 'outbox-relay',
    everyMs: POLL_MS,
    minWokenGapMs: MIN_WOKEN_GAP_MS,
    log,
    run: async () => (await publishOutboxBatch(db, bus, log, BATCH_SIZE)) === BATCH_SIZE,
  });
  const housekeeping = periodicJob({ name: 'outbox-housekeeping', everyMs: HOUSEKEEPING_EVERY_MS, log, run: () => outboxHousekeeping(db) });
  let unsubscribe: (() => void) | undefined;
  return {
    start() {
      unsubscribe = onOutboxCommit(() => relay.wake());
      relay.start();
      housekeeping.start();
    },
    async stop() {
      unsubscribe?.();
      await Promise.all([relay.stop(), housekeeping.stop()]);
    },
  };
}
