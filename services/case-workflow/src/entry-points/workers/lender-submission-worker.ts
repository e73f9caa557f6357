import type { Logger } from '@rental/logger';
import type { BackgroundWorker } from '@rental/service-host';
import { SubmissionDependencies, submitDueSubmissions } from '../../domain/lender-submission';
import { lenderSubmissions } from './metrics';

/** Hands queued lender submissions to the lender: at once when one is queued here, else every poll interval. */
export class LenderSubmissionWorker implements BackgroundWorker {
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;

  constructor(private readonly deps: SubmissionDependencies, private readonly pollMs: number, private readonly log: Logger) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const round = await submitDueSubmissions(this.deps);
        lenderSubmissions.inc({ outcome: 'submitted' }, round.submitted);
        lenderSubmissions.inc({ outcome: 'failed' }, round.failed);
        if (round.failed > 0) this.log.warn(round, 'lender submissions failed; they will be retried');
        if (round.submitted + round.failed > 0) continue;
      } catch (error) {
        this.log.warn({ err: error }, 'lender submission round failed; retrying');
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.pollMs);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.wakeUp = done;
      });
    }
  }
}
