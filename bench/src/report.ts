import { PROCESS_NAMES } from '@rental/stack';
import { writeBenchmarkSection } from '@rental/testkit';
import type { LatencyProbe, Measurement } from './load';

// Reporting: the markdown tables of runs, probes and the summary, and the sections they fill in
// docs/benchmarks.md.

/**
 * The processes whose memory the tables show: the stack's six and the benchmark process itself
 * (autocannon, and the stack's embedded S3, hub stub and SMTP sink, which run in it).
 */
export const MEMORY_COLUMNS: readonly string[] = [...PROCESS_NAMES, 'bench'];

export function table(rows: Measurement[]): string {
  const lines = ['| run | tool | req/s | p50 ms | p99 ms | errors | non-2xx |', '| --- | --- | ---: | ---: | ---: | ---: | ---: |'];
  for (const row of rows) lines.push(`| ${row.label} | ${row.tool} | ${row.requestsPerSecond} | ${row.p50} | ${row.p99} | ${row.errors} | ${row.non2xx} |`);
  return lines.join('\n');
}

export function latencyTable(rows: LatencyProbe[]): string {
  const lines = ['| path | p50 µs | p99 µs |', '| --- | ---: | ---: |'];
  for (const row of rows) lines.push(`| ${row.label} | ${row.p50Micros} | ${row.p99Micros} |`);
  return lines.join('\n');
}

/** A run of `npm run bench`'s summary: its figures, the peak RSS of every process and the CPU it cost. */
export interface SummaryRow extends Measurement {
  benchmark: string;
  peakRssMb: Record<string, number>;
  /** CPU time of the serving processes (all watched but the benchmark process) per request, ms; absent when not measured. */
  cpuMsPerRequest?: number;
  /** CPU time of each watched process over the whole row, ms. */
  cpuMs?: Record<string, number>;
}

/**
 * The summary: one row per run, the CPU the serving processes spent per request, and the peak
 * RSS in MB per column process; processes of a row outside the columns (a benchmark's own
 * helpers) are named in a note under the table.
 */
export function summaryTable(rows: SummaryRow[], columns: readonly string[], options: { benchmarkColumn?: boolean } = {}): string {
  const withBenchmark = options.benchmarkColumn ?? true;
  const lines = [
    `|${withBenchmark ? ' benchmark |' : ''} run | tool | req/s | p50 ms | p99 ms | errors | non-2xx | CPU ms/req | ${columns.map((name) => `${name} MB`).join(' | ')} |`,
    `|${withBenchmark ? ' --- |' : ''} --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ${columns.map(() => '---:').join(' | ')} |`,
  ];
  const notes: string[] = [];
  for (const row of rows) {
    const others = Object.entries(row.peakRssMb).filter(([name]) => !columns.includes(name));
    let label = row.label;
    if (others.length > 0) {
      notes.push(others.map(([name, value]) => `${name} ${value} MB`).join(', '));
      label += ` (note ${notes.length})`;
    }
    const memory = columns.map((name) => (row.peakRssMb[name] === undefined ? '–' : String(row.peakRssMb[name])));
    const cpu = row.cpuMsPerRequest === undefined ? '–' : row.cpuMsPerRequest.toFixed(1);
    lines.push(
      `|${withBenchmark ? ` ${row.benchmark} |` : ''} ${label} | ${row.tool} | ${row.requestsPerSecond} | ${row.p50} | ${row.p99} | ${row.errors} | ${row.non2xx} | ${cpu} | ${memory.join(' | ')} |`,
    );
  }
  if (notes.length > 0) lines.push('', ...notes.map((note, index) => `Note ${index + 1}: peak RSS of the benchmark's own processes in that run: ${note}.`));
  return lines.join('\n');
}

/** Replaces the benchmark's section of docs/benchmarks.md and prints it. */
export function report(title: string, body: string): void {
  writeBenchmarkSection(title, body);
  process.stdout.write(`${body}\n`);
}

/** What the columns beyond autocannon's figures hold. */
export const COLUMNS_LEGEND =
  "CPU ms/req: CPU time (all threads, from /proc/<pid>/stat) of the serving processes, every watched process but the benchmark process, per response; their idle work (timers, pollers, about 45 ms a second for the whole stack) is in it, which shows at low rates. MB columns: peak RSS of each process during the row (VmHWM, reset through /proc/<pid>/clear_refs when the row starts; VmRSS also sampled every 0.5 s); bench is the benchmark process (autocannon and the stack's embedded S3 server, hub stub and SMTP sink). Autocannon, the stack, Postgres and NATS share the machine's 2 cores.";

/** A section of an introduction and the runs, with the CPU per request and the peak RSS of each process. */
export function reportRuns(title: string, introduction: string, rows: SummaryRow[]): void {
  report(title, [`${introduction} ${COLUMNS_LEGEND}`, '', summaryTable(rows, MEMORY_COLUMNS, { benchmarkColumn: false })].join('\n'));
}
