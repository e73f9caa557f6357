import { connectDatabase } from '@rental/db';
import { Stack, bootStack, runDate, shutdownStack } from '@rental/testkit';
import { measureTick } from './clock-tick';
import { Recorder } from './harness';
import { report } from './report';
import { FACTS } from './targets';

// The clock's tick with 100,000 quotes in review of which 1,000 are due a reminder: the rows are
// written straight into case-workflow's schema (checkouts would take hours), then case-workflow is
// restarted and its first tick (one SCHEDULER_TICK after the start) is measured; the tick's own histogram and Postgres'
// counters for the database give time per tick and database load.

const IN_REVIEW = 100_000;
const DUE = 1_000;
const BENCHMARK = 'Scheduler tick';

async function seedQuotes(stack: Stack): Promise<void> {
  const db = connectDatabase({ url: stack.databaseUrl, schema: 'case_workflow' });
  try {
    await db.raw(
      `
      INSERT INTO financing_cases (id, partner_id, case_number, type, financing_request, created_at, updated_at)
      SELECT 'B' || lpad(i::text, 25, '0'), 'acme', 'FC-BENCH-' || i, 'financing', false, now(), now()
      FROM generate_series(1, :n) AS i`,
      { n: IN_REVIEW },
    );
    // Due: last mailed four days ago (REVIEW_REMINDER_AFTER is 3d); the rest were mailed just now.
    await db.raw(
      `
      INSERT INTO quotes (id, financing_case_id, partner_id, quote_number, status, status_updated_at, calculation_type, duration, customer, shipping_address,
        commission_percentage, monthly_costs_cents, in_review_since, review_mailed_at, created_at, updated_at)
      SELECT 'Q' || lpad(i::text, 25, '0'), 'B' || lpad(i::text, 25, '0'), 'acme', 'Q-BENCH-' || i, 'in_review', now(), 'leasing', 36,
        jsonb_build_object('firstName', 'Mara', 'lastName', 'Keller', 'email', 'kunde' || i || '@customer.example', 'company', 'Kunde GmbH'),
        jsonb_build_object('recipientName', 'Mara Keller', 'company', 'Kunde GmbH', 'street', 'Hauptstrasse', 'houseNumber', '1', 'zipCode', '10115', 'city', 'Berlin', 'country', 'DE'),
        0, 3180, now() - interval '4 days', CASE WHEN i <= :due THEN now() - interval '4 days' ELSE now() END, now(), now()
      FROM generate_series(1, :n) AS i`,
      { n: IN_REVIEW, due: DUE },
    );
    await db.raw('ANALYZE financing_cases, quotes');
  } finally {
    await db.destroy();
  }
}

function row(label: string, tick: { seconds: number; reminders: number; load: Record<string, number> }): string {
  const { load } = tick;
  return `| ${label} | ${tick.reminders} | ${(tick.seconds * 1000).toFixed(0)} | ${load.xact_commit} | ${load.tup_returned} | ${load.tup_fetched} | ${load.tup_inserted} | ${load.tup_updated} | ${load.blks_hit} | ${load.blks_read} |`;
}

/** The clock's tick, on a stack of its own; its time and reminders go to the targets table as facts. */
export async function schedulerBench(recorder: Recorder): Promise<void> {
  // The clock's first tick comes one SCHEDULER_TICK after a start: the quotes are written while
  // case-workflow is stopped, and the first tick after its restart is measured.
  const stack = await bootStack({ env: { SCHEDULER_TICK: '10s', REVIEW_REMINDER_AFTER: '3d', REVIEW_EXPIRY_AFTER: '14d', LOG_LEVEL: 'warn' } });
  try {
    const due = await measureTick(stack, () => seedQuotes(stack));
    const idle = await measureTick(stack);
    recorder.facts[FACTS.clockTickMs] = Math.round(due.seconds * 1000);
    recorder.facts[FACTS.clockTickReminders] = due.reminders;
    report(
      BENCHMARK,
      [
        `Command: \`npm run bench:scheduler\` (${runDate()}; part of \`npm run bench\`). ${IN_REVIEW.toLocaleString('en')} quotes in in_review, ${DUE.toLocaleString('en')} of them due a reminder, none due expiry, no overdue items; one tick of case-workflow's scheduler, then the next tick with nothing left due. Time: the tick's own histogram (background_job_duration_seconds{job="clock"}), including the customer link and the outbox mail of each reminder and the documents service's overdue reads over gRPC. Database load: the deltas of pg_stat_database for the stack's database from the stop of case-workflow to one second after the tick (so the process's start and migrations check are in them). The stack, Postgres and NATS share the machine's 2 cores with other work.`,
        '',
        '| tick | reminders | ms | commits | rows returned | rows fetched | rows inserted | rows updated | blocks hit | blocks read |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        row(`${DUE.toLocaleString('en')} due of ${IN_REVIEW.toLocaleString('en')} in review`, due),
        row(`nothing due of ${IN_REVIEW.toLocaleString('en')} in review`, { ...idle, reminders: idle.reminders }),
      ].join('\n'),
    );
  } finally {
    await shutdownStack(stack);
  }
}

if (require.main === module) {
  schedulerBench(new Recorder(() => ({}))).catch((error: unknown) => {
    process.stderr.write(`bench:scheduler failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
