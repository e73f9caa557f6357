import { ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { PROCESS_NAMES } from '@rental/stack';
import { readBenchmarkSection, runDate, shutdownStack, writeBenchmarkSection } from '@rental/testkit';
import { casesBench } from './cases';
import { checkoutBench } from './checkout';
import { documentsBench } from './documents';
import { gatewayBench } from './gateway';
import { Benchmark, Recorder, bootBenchStack, stackProcesses } from './harness';
import { journeyBench } from './journey';
import { lenderSubmissionsBench } from './lender-submissions';
import { processTree } from './processes';
import { COLUMNS_LEGEND, MEMORY_COLUMNS, summaryTable } from './report';
import { pricingBench } from './pricing';
import { schedulerBench } from './scheduler';
import { targetsTable } from './targets';

/** On one stack, in this order: later runs read the cases earlier ones created. */
const ON_ONE_STACK: [string, Benchmark][] = [
  ['bench:gateway', gatewayBench],
  ['bench:pricing', pricingBench],
  ['bench:checkout', checkoutBench],
  ['bench:cases', casesBench],
  ['bench:documents', documentsBench],
  ['bench:journey', journeyBench],
];

const WEBHOOK_SECTION = 'Webhook delivery';

/**
 * The webhook benchmark is a jest run with a stack of its own: it runs as a child process whose
 * stack processes are found under it by their entry file and sampled by pid; its figures are
 * read back from the section it writes.
 */
async function webhooksBench(recorder: Recorder): Promise<void> {
  let child: ChildProcess | undefined;
  const watched = new Recorder(() => (child?.pid ? processTree(child.pid, PROCESS_NAMES) : {}), recorder.rows);
  const { result: exitCode, peakRssMb } = await watched.watch(
    () =>
      new Promise<number | null>((resolve, reject) => {
        child = spawn(process.execPath, [require.resolve('jest/bin/jest'), '-c', 'notifications/jest.bench.config.js'], {
          cwd: path.resolve(__dirname, '..', '..', 'tests'),
          stdio: 'inherit',
        });
        child.on('error', reject);
        child.on('exit', resolve);
      }),
  );
  if (exitCode !== 0) throw new Error(`the webhook benchmark exited with ${exitCode}`);
  const section = readBenchmarkSection(WEBHOOK_SECTION) ?? '';
  if (!section.includes(`(${runDate()})`)) throw new Error(`the webhook benchmark did not write today's "${WEBHOOK_SECTION}" section`);
  // | run | endpoints | events | deliveries | deliveries/s | lag p50 ms | lag p99 ms | lag max ms | stored p50 ms | stored p99 ms |
  const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| run ') && !line.startsWith('| ---'));
  for (const line of rows) {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const [label = '', , , deliveries = '0', perSecond = '0', p50 = '0', p99 = '0'] = cells;
    watched.add({
      benchmark: 'webhook delivery',
      label: `${label} (deliveries/s; latency: event to receiver)`,
      requestsPerSecond: Number(perSecond),
      p50: Number(p50),
      p99: Number(p99),
      errors: 0,
      non2xx: 0,
      requests: Number(deliveries),
      peakRssMb,
      tool: 'NATS publisher',
    });
  }
}

async function main(): Promise<void> {
  const failures: string[] = [];
  const attempt = async (command: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      failures.push(command);
      process.stderr.write(`${command} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    }
  };
  const stack = await bootBenchStack();
  const recorder = new Recorder(stackProcesses(stack));
  try {
    for (const [command, benchmark] of ON_ONE_STACK) {
      process.stdout.write(`\n=== ${command}\n`);
      await attempt(command, () => benchmark({ stack, recorder }));
    }
  } finally {
    await shutdownStack(stack);
  }
  process.stdout.write('\n=== bench:webhooks\n');
  await attempt('bench:webhooks', () => webhooksBench(recorder));
  process.stdout.write('\n=== bench:lender-submissions\n');
  await attempt('bench:lender-submissions', () => lenderSubmissionsBench(recorder));
  process.stdout.write('\n=== bench:scheduler\n');
  await attempt('bench:scheduler', () => schedulerBench(recorder));

  // Every run must answer 2xx only: an error or a refusal (a 429 from a rate limit, a 503) is a fault of the setup or of the code.
  const unclean = recorder.rows.filter((row) => row.errors > 0 || row.non2xx > 0).map((row) => `${row.benchmark}: ${row.label}`);
  if (unclean.length > 0) failures.push(`runs with errors or non-2xx answers (${unclean.join('; ')})`);
  const body = [
    `Command: \`npm run bench\` (${runDate()}${failures.length ? `; FAILED: ${failures.join(', ')}` : ''}). Every benchmark of the project, one after the other: gateway overhead, pricing, cart + checkout, case reads, documents and the partner journey on one stack booted by the test kit (in that order, so the case reads see the cases the checkouts made), then the webhook benchmark (jest), the lender submissions (a production stack) and the clock's tick among 100,000 quotes in review, each on a stack of its own. Every stack runs with the gateway's rate limits on, as shipped, with a per-key budget the runs never reach (\`BENCH_RATE_LIMITS\` in bench/src/harness.ts). Each benchmark's section below has its own command and details.`,
    '',
    "**The load generator and the stack share the machine's 2 cores**: autocannon (in the benchmark process, together with the stack's embedded S3 server, hub stub and SMTP sink), the six stack processes, Postgres and NATS all run on the same two cores, and other work on the machine may run at the same time; saturated rows measure that contention as much as the code, and figures vary between runs.",
    '',
    `Latency percentiles are of 2xx answers (autocannon's histogram); paced rows (a fixed req/s) send their requests evenly spread over each second and report the latencies actually seen. autocannon's own \`overallRate\` sends every connection's quota for a second back to back when that second starts, all connections together, so "200 req/s" is a burst of 200 requests each second and its latencies mostly measure that burst's queue (measured that way, the estimate at 200 req/s had p99 25 ms, against 7–14 ms for an even stream); a paced row therefore runs one single-connection autocannon per share of the rate (at most 100 of them), started 1/connections s apart, and collects the 2xx latencies of all (\`measureEvenlyPaced\` in bench/src/load.ts). Coordinated-omission back-fill is off, since with a rate autocannon assumes a 1 ms interval and adds samples below the real latency. ${COLUMNS_LEGEND} The webhook rows share one peak per process over the whole jest run (its own stack; bench is the jest process; no CPU per delivery is given); for them req/s is deliveries per second and the latency is from the event to its arrival at the receiver.`,
    '',
    summaryTable(recorder.rows, MEMORY_COLUMNS),
  ].join('\n');
  writeBenchmarkSection('Summary (npm run bench)', body);
  writeBenchmarkSection(
    'Targets (issues 18 and 31)',
    [
      `Command: \`npm run bench\` (${runDate()}; load average ${os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(
          ', ',
        )} at its end), the same run as the summary above. "Before" is what the targets were set against (issue 18: the run of 2026-11-23; issue 31: the figures the issue measured); references are measured in this run; CPU figures are of the serving processes (pricing's alone for the estimate). Where a target is not met, the section "Performance work (issue 18)" explains the remaining gap with a profile.`,
      '',
      targetsTable(recorder.rows, recorder.facts),
    ].join('\n'),
  );
  process.stdout.write(`\n${body}\n`);
  if (failures.length > 0) {
    process.stderr.write(`failed: ${failures.join(', ')}\n`);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`npm run bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
