import { databaseNameOf, defaultAdminPort } from '@rental/config';
import { connectDatabase } from '@rental/db';
import { Stack, waitFor } from '@rental/testkit';

// One tick of case-workflow's clock, measured: case-workflow is restarted (its scheduler ticks
// once at start), the tick's own histogram gives its time, Postgres' counters the database load.

export interface DatabaseCounters {
  xact_commit: number;
  tup_returned: number;
  tup_fetched: number;
  tup_inserted: number;
  tup_updated: number;
  blks_hit: number;
  blks_read: number;
}

async function counters(stack: Stack): Promise<DatabaseCounters> {
  const db = connectDatabase({ url: stack.databaseUrl, schema: 'public' });
  try {
    const result = await db.raw(
      'SELECT xact_commit, tup_returned, tup_fetched, tup_inserted, tup_updated, blks_hit, blks_read FROM pg_stat_database WHERE datname = ?',
      [databaseNameOf(stack.databaseUrl)],
    );
    return Object.fromEntries(
      Object.entries(result.rows[0] as Record<string, string>).map(([key, value]) => [key, Number(value)]),
    ) as unknown as DatabaseCounters;
  } finally {
    await db.destroy();
  }
}

/** The scheduler's figures from case-workflow's /metrics. */
async function schedulerMetrics(stack: Stack): Promise<{ ticks: number; seconds: number; reminders: number }> {
  const text = await (await fetch(`http://127.0.0.1:${defaultAdminPort('case-workflow', stack.portBase)}/metrics`)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  return {
    ticks: value(/^background_job_runs_total\{(?=[^}]*job="clock")(?=[^}]*outcome="succeeded")[^}]*\} (\S+)$/m),
    seconds: value(/^background_job_duration_seconds_sum\{[^}]*job="clock"[^}]*\} (\S+)$/m),
    reminders: value(/^scheduler_effects_total\{[^}]*kind="reminder"[^}]*\} (\S+)$/m),
  };
}

/**
 * Restarts case-workflow and measures its first tick (one SCHEDULER_TICK after the start);
 * `whileStopped` prepares the due work while no tick can take it.
 */
export async function measureTick(
  stack: Stack,
  whileStopped?: () => Promise<void>,
): Promise<{ seconds: number; reminders: number; load: Record<string, number> }> {
  const process = stack.processes['case-workflow'];
  await process.stop();
  await whileStopped?.();
  // Postgres publishes its counters with a short delay; settle before and after reading them.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const before = await counters(stack);
  process.start();
  await process.waitReady();
  const metrics = await waitFor(
    async () => {
      const current = await schedulerMetrics(stack);
      return current.ticks >= 1 ? current : undefined;
    },
    { timeoutMs: 300_000, intervalMs: 200, what: 'the first tick' },
  );
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = await counters(stack);
  const load = Object.fromEntries(Object.keys(before).map((key) => [key, after[key as keyof DatabaseCounters] - before[key as keyof DatabaseCounters]]));
  return { seconds: metrics.seconds, reminders: metrics.reminders, load };
}
