import type { Logger } from '@rental/logger';
import type { BackgroundWorker } from '@rental/service-host';
import type { ObjectStore, PendingObjects } from '../../domain/ports';
import { sweepPendingObjects } from '../../domain/sweeper';

/** Removes objects left behind by interrupted uploads and by deleted rows, every intervalMs. */
export class ObjectSweeper implements BackgroundWorker {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(private readonly deps: { pending: PendingObjects; storage: ObjectStore; now(): Date }, private readonly intervalMs: number, private readonly log: Logger) {}

  start(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = sweepPendingObjects(this.deps)
        .then((result) => {
          if (result.removed + result.kept > 0) this.log.info(result, 'pending objects swept');
        })
        .catch((error: unknown) => this.log.warn({ err: error }, 'pending objects could not be swept; retrying later'))
        .finally(() => {
          this.running = undefined;
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
