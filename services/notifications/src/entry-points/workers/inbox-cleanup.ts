import type { Logger } from '@rental/logger';
import { BackgroundWorker, periodicJob } from '@rental/service-host';

const EVERY_MS = 60 * 60 * 1000;

/** Events one round removes: one statement of a fraction of a second with its cascades. */
export const INBOX_CLEANUP_BATCH = 5_000;

/**
 * At start and then hourly, events past their retention go, with their deliveries, attempts and
 * mail log: a batch a round, the next round at once while a batch comes back full (a backlog of
 * 230,000 was one DELETE of 7 s), so a stop waits for one batch at most.
 */
export function inboxCleanup(store: { removeOldEvents(limit: number): Promise<number> }, log: Logger): BackgroundWorker {
  return periodicJob({
    name: 'inbox-cleanup',
    everyMs: EVERY_MS,
    log,
    run: async () => {
      const removed = await store.removeOldEvents(INBOX_CLEANUP_BATCH);
      if (removed > 0) log.info({ removed }, 'old events removed from the inbox');
      return removed === INBOX_CLEANUP_BATCH;
    },
  });
}
