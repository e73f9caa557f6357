import { Bus, onOutboxCommit, outboxHousekeeping, publishOutboxBatch } from '@rental/bus';
import type { Knex } from '@rental/db';
import type { Logger } from '@rental/logger';
import { BackgroundWorker, periodicJob } from './jobs';

const BATCH_SIZE = 200;
const POLL_MS = 500;
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
