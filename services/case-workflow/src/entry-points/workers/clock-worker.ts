import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Logger } from '@rental/logger';
import { Counter, Histogram, registry } from '@rental/metrics';
import type { BackgroundWorker } from '@rental/service-host';
import { ClockDependencies, TickResult, runClockTick } from '../../domain/clock';

const tickDuration = new Histogram({
  name: 'scheduler_tick_duration_seconds',
  help: 'Ticks of the clock (reminders, expiry, overdue requests) this replica ran',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

const tickEffects = new Counter({
  name: 'scheduler_effects_total',
  help: 'What the clock did, by kind (reminder, expiry, overdue_notice, overdue_cancel)',
  labelNames: ['kind'] as const,
  registers: [registry],
});

const tickOutcomes = new Counter({
  name: 'scheduler_ticks_total',
  help: 'Tick attempts by outcome: ran, skipped (another replica held the lease) or failed',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export interface LeaseStore {
  acquireLease(name: string, holder: string, until: Date): Promise<boolean>;
  releaseLease(name: string, holder: string): Promise<void>;
}

const LEASE = 'case-workflow.clock';
/** A replica that dies mid-tick holds the lease at most this long past its tick interval. */
const LEASE_SLACK_MS = 60_000;

/**
 * The one scheduler: every SCHEDULER_TICK the replica that gets the lease runs one tick of the
 * clock. The lease keeps replicas from doing the same work twice; each effect is also re-checked
 * in its locked case, so even two ticks at once apply every move and send every mail once.
 * stop() lets a running tick finish.
 */
export class ClockWorker implements BackgroundWorker {
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  private readonly holder = `${os.hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;

  constructor(private readonly deps: ClockDependencies & { leases: LeaseStore; now(): Date }, private readonly tickMs: number, private readonly log: Logger) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
  }

  /** One tick now, if the lease is free; undefined when another replica holds it. */
  async tick(): Promise<TickResult | undefined> {
    const now = this.deps.now();
    if (!await this.deps.leases.acquireLease(LEASE, this.holder, new Date(now.getTime() + this.tickMs + LEASE_SLACK_MS))) {
      tickOutcomes.inc({ outcome: 'skipped' });
      return undefined;
    }
    const stopTimer = tickDuration.startTimer();
    try {
      const result = await runClockTick(this.deps, now);
      tickOutcomes.inc({ outcome: 'ran' });
      tickEffects.inc({ kind: 'reminder' }, result.reminders);
      tickEffects.inc({ kind: 'expiry' }, result.expiries);
      tickEffects.inc({ kind: 'overdue_notice' }, result.overdueNotices);
      tickEffects.inc({ kind: 'overdue_cancel' }, result.overdueCancels);
      if (result.reminders + result.expiries + result.overdueNotices + result.overdueCancels > 0) this.log.info({ ...result }, 'clock tick applied changes');
      return result;
    } finally {
      stopTimer();
      await this.deps.leases.releaseLease(LEASE, this.holder);
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.tick();
      } catch (error) {
        tickOutcomes.inc({ outcome: 'failed' });
        this.log.warn({ err: error }, 'clock tick failed; the next tick tries again');
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.tickMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}
