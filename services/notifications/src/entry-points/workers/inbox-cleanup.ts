import type { Logger } from '@rental/logger';
import { BackgroundWorker, periodicJob } from '@rental/service-host';

const EVERY_MS = 60 * 60 * 1000;

/** At start and then hourly, events past their retention go, with their deliveries, attempts and mail log. */
export function inboxCleanup(store: { removeOldEvents(): Promise<number> }, log: Logger): BackgroundWorker {
  return periodicJob({
    name: 'inbox-cleanup',
    everyMs: EVERY_MS,
    log,
    run: async () => {
      const removed = await store.removeOldEvents();
      if (removed > 0) log.info({ removed }, 'old events removed from the inbox');
    },
  });
}
