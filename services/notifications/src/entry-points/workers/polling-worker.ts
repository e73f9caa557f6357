import type { Logger } from '@rental/logger';
import type { BackgroundWorker } from '@rental/service-host';

export interface PollingWorkerOptions<Job> {
  name: string;
  /** Jobs in flight at once. */
  concurrency: number;
  /** Longest sleep when nothing is due; a wake() or a finished job ends it earlier. */
  pollMs: number;
  /** Claims up to `limit` due jobs; `inFlight` counts running jobs by key. */
  claim(limit: number, inFlight: ReadonlyMap<string, number>): Promise<Job[]>;
  process(job: Job): Promise<void>;
  /** When the next job falls due (to sleep exactly that long), or undefined when none waits. */
  nextDueAt(): Promise<Date | undefined>;
  keyOf(job: Job): string;
  log: Logger;
}

const MIN_WAIT_MS = 20;
/** While jobs run, the loop also looks this often, so a retry falling due is not held up by a slow job. */
const BUSY_POLL_MS = 100;
const COALESCE_MS = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs jobs kept in Postgres: claims what is due, runs up to `concurrency` at once, and sleeps
 * until the next one falls due. Nothing is held in memory that a restart would lose; a job
 * claimed by a process that died is claimed again when its lease expires.
 */
export class PollingWorker<Job> implements BackgroundWorker {
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  private woken = false;
  private readonly tasks = new Set<Promise<void>>();
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly options: PollingWorkerOptions<Job>) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Something became due (a new event was stored): look now instead of at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await Promise.allSettled([...this.tasks]);
  }

  private async run(): Promise<void> {
    const { concurrency, pollMs, log } = this.options;
    while (this.running) {
      const free = concurrency - this.tasks.size;
      let claimed = 0;
      try {
        if (free > 0) {
          const jobs = await this.options.claim(free, this.inFlight);
          claimed = jobs.length;
          jobs.forEach((job) => this.launch(job));
        }
        if (!this.running) break;
        if (free > 0 && claimed === free) continue;
        if (this.tasks.size > 0) {
          // A finished job wakes the loop; waiting a moment first lets several finish per claim.
          await sleep(COALESCE_MS);
          await this.idle(Math.min(pollMs, BUSY_POLL_MS));
          continue;
        }
        const due = await this.options.nextDueAt();
        await this.idle(due ? Math.min(Math.max(due.getTime() - Date.now(), MIN_WAIT_MS), pollMs) : pollMs);
      } catch (error) {
        log.warn({ err: error, worker: this.options.name }, 'worker could not claim jobs; retrying');
        await this.idle(1000);
      }
    }
  }

  private launch(job: Job): void {
    const key = this.options.keyOf(job);
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    const task = this.options
      .process(job)
      .catch((error) => this.options.log.error({ err: error, worker: this.options.name }, 'job failed; it runs again when its lease expires'))
      .finally(() => {
        const left = (this.inFlight.get(key) ?? 1) - 1;
        if (left > 0) this.inFlight.set(key, left);
        else this.inFlight.delete(key);
        this.tasks.delete(task);
        this.wake();
      });
    this.tasks.add(task);
  }

  /** Sleeps up to `ms`; a wake() that came while the loop was busy ends the sleep at once. */
  private idle(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }
}
