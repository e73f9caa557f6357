import { PROCESS_NAMES } from '@rental/stack';
import { Stack, bootStack, shutdownStack } from '@rental/testkit';
import { LoadOptions, measure } from './load';
import { ProcessPids, ProcessWatch, WatchedFigures, cpuPerRequest } from './processes';
import type { SummaryRow } from './report';
import { profileRow } from './row-profiles';

// Orchestration: the stack a benchmark runs on, running one alone, and recording runs with
// what the processes spent on them.

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
  return bootStack({ env: { ...BENCH_RATE_LIMITS, ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}) } });
}

/**
 * The gateway's rate limits as shipped (on, shared through Postgres), with a per-key budget no
 * run reaches: the benchmarks drive one key from one address at full speed, which the README's
 * 200 per second would refuse, and a refusal is cheaper than the work it measures. The address
 * limit keeps its default (it counts only requests without a valid key).
 */
export const BENCH_RATE_LIMITS = {
  RATE_LIMIT_KEY_PER_SECOND: '1000000',
  RATE_LIMIT_KEY_BURST: '2000000',
  RATE_LIMIT_ADDRESS_PER_SECOND: '500',
  RATE_LIMIT_ADDRESS_BURST: '1000',
};

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

/**
 * Collects the summary rows of the runs it measures; each run watches the processes the
 * recorder was given.
 */
export class Recorder {
  /**
   * @param facts figures a benchmark measured beside its rows (an added latency, the CPU of a
   *   journey), for the targets table of `npm run bench`.
   */
  constructor(
    readonly processes: () => ProcessPids,
    readonly rows: SummaryRow[] = [],
    readonly facts: Record<string, number> = {},
  ) {}

  /** The same table, with more processes watched (a benchmark's own helper processes). */
  including(extra: () => ProcessPids): Recorder {
    return new Recorder(() => ({ ...this.processes(), ...extra() }), this.rows, this.facts);
  }

  /** Runs `run` while watching the processes; the caller reduces its result to a summary row. */
  async watch<T>(run: () => Promise<T>, intervalMs?: number): Promise<WatchedFigures & { result: T; watch: ProcessWatch }> {
    const watch = new ProcessWatch(this.processes, intervalMs).start();
    try {
      const result = await run();
      return { result, ...watch.stop(), watch };
    } catch (error) {
      watch.stop();
      throw error;
    }
  }

  add(row: SummaryRow): SummaryRow {
    this.rows.push(row);
    return row;
  }

  /** One autocannon run (see `measure`), recorded with the peak RSS of every process and the CPU per request. */
  async measure(benchmark: string, options: LoadOptions): Promise<SummaryRow> {
    const { result, peakRssMb, cpuMs } = await this.watch(() => profileRow(options.label, this.processes(), () => measure(options)));
    return this.add({ ...result, benchmark, peakRssMb, cpuMsPerRequest: cpuPerRequest(cpuMs, result.requests), cpuMs });
  }
}
