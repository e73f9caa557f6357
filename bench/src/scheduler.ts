import { databaseNameOf, defaultAdminPort } from '@rental/config';
import { connectDatabase } from '@rental/db';
import { Stack, bootStack, runDate, shutdownStack, waitFor } from '@rental/testkit';
import { report } from './report';

// The clock's tick with 100,000 quotes in review of which 1,000 are due a reminder: the rows are
// written straight into case-workflow's schema (checkouts would take hours), then case-workflow is
// restarted with a short tick (its first tick comes one interval after start), and measured up to
// that first tick; the tick's own histogram and Postgres'
// counters for the database give time per tick and database load.

const IN_REVIEW = 100_000;
const DUE = 1_000;
const BENCHMARK = 'Scheduler tick';
/** Longer than a tick with due work takes, so the metrics read after the first tick hold that tick alone. */
const MEASURED_TICK = '20s';

async function seedQuotes(stack: Stack): Promise<void> {
  const db = connectDatabase({ url: stack.databaseUrl, schema: 'case_workflow' });
  try {
    await db.raw(`
      INSERT INTO financing_cases (id, partner_id, case_number, type, financing_request, created_at, updated_at)
      SELECT 'B' || lpad(i::text, 25, '0'), 'acme', 'FC-BENCH-' || i, 'financing', false, now(), now()
      FROM generate_series(1, :n) AS i`, { n: IN_REVIEW });
    // Due: last mailed four days ago (REVIEW_REMINDER_AFTER is 3d); the rest were mailed just now.
    await db.raw(`
      INSERT INTO quotes (id, financing_case_id, partner_id, quote_number, status, status_updated_at, calculation_type, duration, customer, shipping_address,
        commission_percentage, monthly_costs_cents, in_review_since, review_mailed_at, created_at, updated_at)
      SELECT 'Q' || lpad(i::text, 25, '0'), 'B' || lpad(i::text, 25, '0'), 'acme', 'Q-BENCH-' || i, 'in_review', now(), 'leasing', 36,
        jsonb_build_object('firstName', 'Mara', 'lastName', 'Keller', 'email', 'kunde' || i || '@customer.example', 'company', 'Kunde GmbH'),
        jsonb_build_object('recipientName', 'Mara Keller', 'company', 'Kunde GmbH', 'street', 'Hauptstrasse', 'houseNumber', '1', 'zipCode', '10115', 'city', 'Berlin', 'country', 'DE'),
        0, 3180, now() - interval '4 days', CASE WHEN i <= :due THEN now() - interval '4 days' ELSE now() END, now(), now()
      FROM generate_series(1, :n) AS i`, { n: IN_REVIEW, due: DUE });
    await db.raw('ANALYZE financing_cases, quotes');
  } finally {
    await db.destroy();
  }
}

/** Reminder mails the tick put in the outbox, and of how many cases: each due case once. */
async function reminderMails(stack: Stack): Promise<{ mails: number; cases: number }> {
  const db = connectDatabase({ url: stack.databaseUrl, schema: 'case_workflow' });
  try {
    const result = await db.raw("SELECT count(*)::int AS mails, count(DISTINCT payload->>'financingCaseId')::int AS cases FROM outbox WHERE payload->>'kind' = 'review_reminder'");
    return result.rows[0] as { mails: number; cases: number };
  } finally {
    await db.destroy();
  }
}

interface DatabaseCounters { xact_commit: number; tup_returned: number; tup_fetched: number; tup_inserted: number; tup_updated: number; blks_hit: number; blks_read: number }

async function counters(stack: Stack): Promise<DatabaseCounters> {
  const db = connectDatabase({ url: stack.databaseUrl, schema: 'public' });
  try {
    const result = await db.raw('SELECT xact_commit, tup_returned, tup_fetched, tup_inserted, tup_updated, blks_hit, blks_read FROM pg_stat_database WHERE datname = ?', [databaseNameOf(stack.databaseUrl)]);
    return Object.fromEntries(Object.entries(result.rows[0] as Record<string, string>).map(([key, value]) => [key, Number(value)])) as unknown as DatabaseCounters;
  } finally {
    await db.destroy();
  }
}

/** The scheduler's figures from case-workflow's /metrics. */
async function schedulerMetrics(stack: Stack): Promise<{ ticks: number; seconds: number; reminders: number; cpuSeconds: number }> {
  const text = await (await fetch(`http://127.0.0.1:${defaultAdminPort('case-workflow', stack.portBase)}/metrics`)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  return {
    ticks: value(/^background_job_runs_total\{(?=[^}]*job="clock")(?=[^}]*outcome="succeeded")[^}]*\} (\S+)$/m),
    seconds: value(/^background_job_duration_seconds_sum\{[^}]*job="clock"[^}]*\} (\S+)$/m),
    reminders: value(/^scheduler_effects_total\{[^}]*kind="reminder"[^}]*\} (\S+)$/m),
    cpuSeconds: value(/^process_cpu_seconds_total(?:\{[^}]*\})? (\S+)$/m),
  };
}

/** Restarts case-workflow (its first tick runs at start) and measures that one tick. */
async function measureTick(stack: Stack): Promise<{ seconds: number; reminders: number; cpuMs: number; load: Record<string, number> }> {
  const process = stack.processes['case-workflow'];
  await process.stop();
  // Postgres publishes its counters with a short delay; settle before and after reading them.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const before = await counters(stack);
  // Booted with an hourly tick, so nothing ticks while the quotes are written; measured with a
  // tick a few seconds after start (the first tick waits one interval).
  process.options.env = { ...process.options.env, SCHEDULER_TICK: MEASURED_TICK };
  process.start();
  await process.waitReady();
  // Its CPU from here to the end of the first tick: the tick's own work (the process is idle until it).
  const ready = await schedulerMetrics(stack);
  const metrics = await waitFor(async () => {
    const current = await schedulerMetrics(stack);
    return current.ticks >= 1 ? current : undefined;
  }, { timeoutMs: 300_000, intervalMs: 200, what: 'the first tick' });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = await counters(stack);
  const load = Object.fromEntries(Object.keys(before).map((key) => [key, after[key as keyof DatabaseCounters] - before[key as keyof DatabaseCounters]]));
  return { seconds: metrics.seconds, reminders: metrics.reminders, cpuMs: (metrics.cpuSeconds - ready.cpuSeconds) * 1000, load };
}

function row(label: string, tick: { seconds: number; reminders: number; cpuMs: number; load: Record<string, number> }): string {
  const { load } = tick;
  return `| ${label} | ${tick.reminders} | ${(tick.seconds * 1000).toFixed(0)} | ${tick.cpuMs.toFixed(0)} | ${load.xact_commit} | ${load.tup_returned} | ${load.tup_fetched} | ${load.tup_inserted} | ${load.tup_updated} | ${load.blks_hit} | ${load.blks_read} |`;
}

void (async () => {
  // A tick an hour until the quotes are written: the measured ticks are the first after each restart.
  // BENCH_NODE_OPTIONS (the CPU profiler, say) reaches the stack's processes as in the other benchmarks.
  const profiler = process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {};
  const stack = await bootStack({ env: { ...profiler, SCHEDULER_TICK: '1h', REVIEW_REMINDER_AFTER: '3d', REVIEW_EXPIRY_AFTER: '14d', LOG_LEVEL: 'warn' } });
  try {
    await seedQuotes(stack);
    const due = await measureTick(stack);
    const mails = await reminderMails(stack);
    const idle = await measureTick(stack);
    report(BENCHMARK, [
      `Command: \`npm run bench:scheduler\` (${runDate()}). ${IN_REVIEW.toLocaleString('en')} quotes in in_review, ${DUE.toLocaleString('en')} of them due a reminder, none due expiry, no overdue items; one tick of case-workflow's scheduler, then the next tick with nothing left due. Time: the tick's own histogram (background_job_duration_seconds{job="clock"}), including the customer link and the outbox mail of each reminder and the documents service's overdue reads over gRPC. CPU: case-workflow's process_cpu_seconds_total from ready to the end of its first tick (idle until the tick, so the tick's own work and the metrics reads). Database load: the deltas of pg_stat_database for the stack's database from the stop of case-workflow to one second after the tick (so the process's start and migrations check are in them). The stack, Postgres and NATS share the machine's 2 cores with other work.`,
      '',
      '| tick | reminders | ms | case-workflow CPU ms | commits | rows returned | rows fetched | rows inserted | rows updated | blocks hit | blocks read |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      row(`${DUE.toLocaleString('en')} due of ${IN_REVIEW.toLocaleString('en')} in review`, due),
      row(`nothing due of ${IN_REVIEW.toLocaleString('en')} in review`, { ...idle, reminders: idle.reminders }),
      '',
      `Reminder mails in the outbox after both ticks: ${mails.mails.toLocaleString('en')} for ${mails.cases.toLocaleString('en')} cases (each due case once).`,
    ].join('\n'));
  } finally {
    await shutdownStack(stack);
  }
})().catch((error: unknown) => {
  process.stderr.write(`bench:scheduler failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
