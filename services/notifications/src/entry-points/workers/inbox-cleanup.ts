import type { Logger } from '@rental/logger';
import type { BackgroundWorker } from '@rental/service-host';

const EVERY_MS = 60 * 60 * 1000;

/** Once an hour, events past their retention go, with their deliveries, attempts and mail log. */
export function inboxCleanup(store: { removeOldEvents(): Promise<number> }, log: Logger): BackgroundWorker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = store
      .removeOldEvents()
      .then((removed) => {
        if (removed > 0) log.info({ removed }, 'old events removed from the inbox');
      })
      .catch((error) => log.warn({ err: error }, 'inbox cleanup failed; trying again in an hour'));
  };
  return {
    start() {
      timer = setInterval(run, EVERY_MS);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
