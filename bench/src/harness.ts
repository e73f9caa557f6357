import { PROCESS_NAMES } from '@rental/stack';
import { Stack, bootStack, shutdownStack, writeBenchmarkSection } from '@rental/testkit';
import { ProcessPids, Recorder, SummaryRow, summaryTable } from './measure';

/**
 * The processes whose memory the tables show: the stack's six and the benchmark process itself
 * (autocannon, and the stack's embedded S3, hub stub and SMTP sink, which run in it).
 */
export const MEMORY_COLUMNS: readonly string[] = [...PROCESS_NAMES, 'bench'];

export function stackProcesses(stack: Stack): () => ProcessPids {
  return () => ({ ...Object.fromEntries(PROCESS_NAMES.map((name) => [name, stack.processes[name].pid])), bench: process.pid });
}

export interface BenchContext {
  stack: Stack;
  /** Records each run for the summary of `npm run bench`, with the peak RSS of every process. */
  recorder: Recorder;
}

export type Benchmark = (context: BenchContext) => Promise<void>;

/**
 * A stack for benchmarks (the test kit's: its own database and ports, log level info).
 * BENCH_NODE_OPTIONS reaches every process of the stack, for example
 * `--require <repo>/bench/dist/cpu-profile.js` to profile a path under load (Node refuses
 * --cpu-prof in NODE_OPTIONS) or `--require <repo>/bench/dist/heap-trace.js` to trace memory.
 */
export function bootBenchStack(): Promise<Stack> {
  return bootStack(process.env.BENCH_NODE_OPTIONS ? { env: { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } } : {});
}

/** `npm run bench:<name>`: one benchmark on a stack of its own; it writes its own section. */
export function runAlone(command: string, benchmark: Benchmark): void {
  void (async () => {
    const stack = await bootBenchStack();
    try {
      await benchmark({ stack, recorder: new Recorder(stackProcesses(stack)) });
    } finally {
      await shutdownStack(stack);
    }
  })().catch((error: unknown) => {
    process.stderr.write(`${command} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}

/** Replaces the benchmark's section of docs/benchmarks.md and prints it. */
export function report(title: string, body: string): void {
  writeBenchmarkSection(title, body);
  process.stdout.write(`${body}\n`);
}

/** What the columns beyond autocannon's figures hold. */
export const COLUMNS_LEGEND = 'CPU ms/req: CPU time (all threads, from /proc/<pid>/stat) of the serving processes, every watched process but the benchmark process, per response; their idle work (timers, pollers, about 45 ms a second for the whole stack) is in it, which shows at low rates. MB columns: peak RSS of each process during the row (VmHWM, reset through /proc/<pid>/clear_refs when the row starts; VmRSS also sampled every 0.5 s); bench is the benchmark process (autocannon and the stack\'s embedded S3 server, hub stub and SMTP sink). Autocannon, the stack, Postgres and NATS share the machine\'s 2 cores.';

/** A section of an introduction and the runs, with the CPU per request and the peak RSS of each process. */
export function reportRuns(title: string, introduction: string, rows: SummaryRow[]): void {
  report(title, [`${introduction} ${COLUMNS_LEGEND}`, '', summaryTable(rows, MEMORY_COLUMNS, { benchmarkColumn: false })].join('\n'));
}
