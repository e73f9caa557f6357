import { type Logger, inTraceOf } from '@rental/logger';
import { counter } from '@rental/metrics';
import { JobLease, PeriodicJob, periodicJob } from '@rental/service-host';
import { ClockDependencies, runClockTick } from '../../domain/case/clock';

const tickEffects = counter({
  name: 'scheduler_effects_total',
  help: 'What the clock did, by kind (reminder, expiry, overdue_notice, overdue_cancel)',
  labelNames: ['kind'] as const,
});

/**
 * The one scheduler: every SCHEDULER_TICK the replica that gets the lease runs one tick of the
 * clock (runs, failures, skips and duration are the `clock` job's metrics). The lease keeps
 * replicas from doing the same work twice; each effect is also re-checked in its locked case, so
 * even two ticks at once apply every move and send every mail once.
 */
export function clockJob(deps: ClockDependencies & { now(): Date }, options: { tickMs: number; lease: JobLease; log: Logger }): PeriodicJob {
  const { log } = options;
  return periodicJob({
    name: 'clock',
    everyMs: options.tickMs,
    singleton: options.lease,
    // A tick asks documents for overdue items; at start documents may not listen yet.
    firstRoundAfterInterval: true,
    log,
    // Each tick is a trace of its own: the moves, mails and events it causes share its id.
    run: () =>
      inTraceOf({}, async () => {
        const result = await runClockTick(deps, deps.now());
        tickEffects.inc({ kind: 'reminder' }, result.reminders);
        tickEffects.inc({ kind: 'expiry' }, result.expiries);
        tickEffects.inc({ kind: 'overdue_notice' }, result.overdueNotices);
        tickEffects.inc({ kind: 'overdue_cancel' }, result.overdueCancels);
        if (result.reminders + result.expiries + result.overdueNotices + result.overdueCancels > 0) log.info({ ...result }, 'clock tick applied changes');
      }),
  });
}
