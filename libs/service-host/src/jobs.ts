import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Knex } from '@rental/db';
import type { Logger } from '@rental/logger';
import { counter, histogram } from '@rental/metrics';

/**
 * The one way a service runs work in the background. Two shapes share their lifecycle, waking,
 * logging and metrics:
 * - `queueWorker`: rows in the service's own tables that fall due (webhook deliveries, mails),
 *   claimed with `FOR UPDATE SKIP LOCKED` and a lease, several at once, sleeping until the next is due;
 * - `periodicJob`: one round every interval (the clock, sweepers, purges, the outbox relay), again
 *   at once while a round says more waits, optionally in one replica at a time (`singleton`).
 * Both stop gracefully: stop() claims nothing new and waits for what runs.
 * Why not pg-boss or graphile-worker: docs/decisions.md (Platform).
 */
export interface BackgroundWorker {
  start(): void;
  stop(): Promise<void>;
}

const jobRuns = counter({
  name: 'background_job_runs_total',
  help: 'Runs of background jobs (one queue item, or one round of a periodic job), by job and outcome: succeeded, failed, or skipped (another replica holds a singleton job)',
  labelNames: ['job', 'outcome'] as const,
});

const jobDuration = histogram({
  name: 'background_job_duration_seconds',
  help: 'Time one run of a background job took, by job',
  labelNames: ['job'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
});

/** The metric children of one job, bound once: a queue worker records thousands of runs a second. */
function jobMetrics(job: string) {
  return {
    succeeded: jobRuns.labels(job, 'succeeded'),
    failed: jobRuns.labels(job, 'failed'),
    skipped: jobRuns.labels(job, 'skipped'),
    duration: jobDuration.labels(job),
  };
}

/** Start, stop and the sleep that wake() ends, shared by both shapes. */
abstract class JobLoop implements BackgroundWorker {
  protected running = false;
  protected readonly metrics: ReturnType<typeof jobMetrics>;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  private woken = false;

  protected constructor(readonly name: string) {
    this.metrics = jobMetrics(name);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Work became due here (a row was committed): look now instead of after the sleep. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await this.drain();
  }

  protected abstract run(): Promise<void>;

  protected async drain(): Promise<void> {}

  /** Sleeps up to `ms`; a wake() that came while the loop was busy ends the sleep at once. True when a wake() ended it. */
  protected idle(ms: number): Promise<boolean> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const done = (woken: boolean) => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        this.woken = false;
        resolve(woken);
      };
      const timer = setTimeout(() => done(false), ms);
      this.wakeUp = () => done(true);
    });
  }
}

export interface QueueWorkerOptions<Job> {
  /** The job's name in logs and in the metrics' `job` label. */
  name: string;
  /** Jobs in flight at once. */
  concurrency: number;
  /** Longest sleep when nothing is due; a wake() or a finished job ends it earlier. */
  pollMs: number;
  /** Claims (and leases) up to `limit` due jobs; `inFlight` counts running jobs by key. */
  claim(limit: number, inFlight: ReadonlyMap<string, number>): Promise<Job[]>;
  /** Runs one job and records its outcome in the same store; a throw leaves it to its lease. */
  process(job: Job): Promise<void>;
  /** When the next job falls due (to sleep exactly that long), or undefined when none waits. */
  nextDueAt?(): Promise<Date | undefined>;
  /** The keys `inFlight` counts a job under (for example its webhook endpoint and its partner), when claims limit per key. */
  keysOf?(job: Job): readonly string[];
  log: Logger;
}

const MIN_WAIT_MS = 20;
/** While jobs run, the loop also looks this often, so a job falling due is not held up by a slow one. */
const BUSY_POLL_MS = 100;
const COALESCE_MS = 3;
const CLAIM_RETRY_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs jobs kept in Postgres: claims what is due, runs up to `concurrency` at once, and sleeps
 * until the next one falls due. Nothing is held in memory that a restart would lose; a job
 * claimed by a process that died is claimed again when its lease expires, so replicas share the
 * queue safely.
 */
export class QueueWorker<Job> extends JobLoop {
  private readonly tasks = new Set<Promise<void>>();
  private readonly inFlight = new Map<string, number>();
  /** Slots held for jobs being handed over (handOver) while their producer stores them. */
  private reserved = 0;

  constructor(private readonly options: QueueWorkerOptions<Job>) {
    super(options.name);
  }

  /**
   * A job its producer is storing right now, run here without a claim when a slot is free: saves
   * the claim's statement per job. `store` writes the job, leased to this worker when
   * `toThisWorker` (so no replica claims it), and answers it, or undefined when nothing new was
   * stored. Without a free slot the job is stored unleased for the next claim, and the loop is woken.
   */
  async handOver(store: (toThisWorker: boolean) => Promise<Job | undefined>): Promise<Job | undefined> {
    const slot = this.running && this.tasks.size + this.reserved < this.options.concurrency;
    if (slot) this.reserved += 1;
    try {
      const job = await store(slot);
      // Stopped meanwhile: the job's lease runs out and a claim (here after a restart, or another replica) takes it.
      if (job && slot && this.running) this.launch(job);
      else if (job) this.wake();
      return job;
    } finally {
      if (slot) this.reserved -= 1;
    }
  }

  protected async run(): Promise<void> {
    const { concurrency, pollMs, log } = this.options;
    while (this.running) {
      const free = concurrency - this.tasks.size - this.reserved;
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
        const due = await this.options.nextDueAt?.();
        await this.idle(due ? Math.min(Math.max(due.getTime() - Date.now(), MIN_WAIT_MS), pollMs) : pollMs);
      } catch (error) {
        log.warn({ err: error, job: this.name }, 'background job could not claim work; retrying');
        await this.idle(CLAIM_RETRY_MS);
      }
    }
  }

  protected override async drain(): Promise<void> {
    await Promise.allSettled([...this.tasks]);
  }

  private launch(job: Job): void {
    const keys = this.options.keysOf?.(job) ?? [];
    for (const key of keys) this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    const stopTimer = this.metrics.duration.startTimer();
    const task = this.options
      .process(job)
      .then(() => this.metrics.succeeded.inc())
      .catch((error) => {
        this.metrics.failed.inc();
        this.options.log.error({ err: error, job: this.name }, 'job failed; it runs again when its lease expires');
      })
      .finally(() => {
        stopTimer();
        for (const key of keys) {
          const left = (this.inFlight.get(key) ?? 1) - 1;
          if (left > 0) this.inFlight.set(key, left);
          else this.inFlight.delete(key);
        }
        this.tasks.delete(task);
        this.wake();
      });
    this.tasks.add(task);
  }
}

export function queueWorker<Job>(options: QueueWorkerOptions<Job>): QueueWorker<Job> {
  return new QueueWorker(options);
}

/** A lease that lets one replica at a time run a singleton job. */
export interface JobLease {
  /** Takes (or renews) the lease until `until`; false when another replica holds it. */
  acquire(until: Date): Promise<boolean>;
  release(): Promise<void>;
}

/**
 * A lease row in the service's own `scheduler_leases` table (name primary key, holder,
 * lease_until): free, expired or already this holder's is taken; released after each run, so
 * the next run may happen in any replica, and taken over once a dead holder's time ran out.
 */
export function postgresLease(db: Knex, name: string): JobLease {
  const holder = `${os.hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  return {
    async acquire(until) {
      const result = await db.raw(
        `INSERT INTO scheduler_leases (name, holder, lease_until) VALUES (:name, :holder, :until)
         ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, lease_until = EXCLUDED.lease_until
         WHERE scheduler_leases.lease_until < now() OR scheduler_leases.holder = EXCLUDED.holder
         RETURNING holder`,
        { name, holder, until },
      );
      return result.rows.length === 1;
    },
    async release() {
      await db('scheduler_leases')
        .where({ name, holder })
        .update({ lease_until: new Date(0) });
    },
  };
}

export interface PeriodicJobOptions {
  /** The job's name in logs and in the metrics' `job` label. */
  name: string;
  /** The pause after a round before the next; a wake() ends it earlier. The first round runs at start. */
  everyMs: number;
  /** One round; true when more work waits, so the next round follows at once. */
  run(): Promise<boolean | void>;
  /** Only the replica holding this lease runs a round; the others count it as skipped. */
  singleton?: JobLease;
  /**
   * Wait one interval before the first round, for a job that calls other services: at start they
   * may not listen yet, and a refused connection puts the gRPC channel into reconnect backoff, so
   * the partner calls that follow would fail fast with 503 until it retries.
   */
  firstRoundAfterInterval?: boolean;
  /**
   * A round that a wake() starts waits until this long after the previous round began, so work
   * committed in quick succession goes in one round instead of a round each (rounds cost the
   * same whether they carry one row or many); a wake after a quieter spell starts a round at once.
   */
  minWokenGapMs?: number;
  log: Logger;
}

/** A singleton's lease outlasts its interval by this much, so a replica that dies mid-round holds it at most this long past its turn. */
const SINGLETON_SLACK_MS = 60_000;

/** Runs a round at start (or after one interval) and then every `everyMs` after the previous round ended (rounds never overlap). */
export class PeriodicJob extends JobLoop {
  constructor(private readonly options: PeriodicJobOptions) {
    super(options.name);
  }

  protected async run(): Promise<void> {
    if (this.options.firstRoundAfterInterval) await this.idle(this.options.everyMs);
    while (this.running) {
      const startedAt = Date.now();
      let more = false;
      try {
        more = await this.round();
      } catch (error) {
        this.options.log.warn({ err: error, job: this.name }, 'background job failed; it runs again at its next turn');
      }
      if (!this.running) break;
      if (!more) await this.idleUntilWokenOrDue(startedAt);
    }
  }

  /** The pause after a round without more work: until a wake or the interval, and a woken round no sooner than minWokenGapMs after this one began. */
  private async idleUntilWokenOrDue(roundStartedAt: number): Promise<void> {
    const { everyMs, minWokenGapMs } = this.options;
    const woken = await this.idle(everyMs);
    const wait = minWokenGapMs === undefined ? 0 : roundStartedAt + minWokenGapMs - Date.now();
    if (woken && wait > 0 && this.running) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  private async round(): Promise<boolean> {
    const { singleton, everyMs } = this.options;
    try {
      if (singleton && !(await singleton.acquire(new Date(Date.now() + everyMs + SINGLETON_SLACK_MS)))) {
        this.metrics.skipped.inc();
        return false;
      }
    } catch (error) {
      this.metrics.failed.inc();
      throw error;
    }
    const stopTimer = this.metrics.duration.startTimer();
    try {
      const more = await this.options.run();
      this.metrics.succeeded.inc();
      return more === true;
    } catch (error) {
      this.metrics.failed.inc();
      throw error;
    } finally {
      stopTimer();
      await singleton?.release();
    }
  }
}

export function periodicJob(options: PeriodicJobOptions): PeriodicJob {
  return new PeriodicJob(options);
}
