import type { Logger } from '@rental/logger';
import { BackgroundWorker, periodicJob } from '@rental/service-host';
import type { ObjectStore, PendingObjects } from '../../domain/ports';
import { sweepPendingObjects } from '../../domain/sweeper';

/** Removes objects left behind by interrupted uploads and by deleted rows, at start and every intervalMs. */
export function objectSweeper(deps: { pending: PendingObjects; storage: ObjectStore; now(): Date }, intervalMs: number, log: Logger): BackgroundWorker {
  return periodicJob({
    name: 'object-sweeper',
    everyMs: intervalMs,
    log,
    run: async () => {
      const result = await sweepPendingObjects(deps);
      if (result.removed + result.kept > 0) log.info(result, 'pending objects swept');
    },
  });
}
