import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { percentile } from '@rental/testkit';

export interface Measurement {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Responses in the run. */
  requests: number;
}

/** Length of a run unless it sets its own; BENCH_SECONDS shortens runs while developing. */
export const ROW_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export interface LoadOptions {
  label: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  connections?: number;
  /** Fixed request rate, requests per second, evenly paced (see measureEvenlyPaced); unset: as fast as possible over `connections`. */
  overallRate?: number;
  durationSeconds?: number;
  body?: string | Buffer;
  /** A sequence each connection runs in turn (autocannon `requests`): dynamic paths, headers and bodies. */
  requests?: autocannon.Request[];
}

/**
 * Starts autocannon and resolves with its result; `onResponse` sees every response with its
 * latency in ms (autocannon's own histogram only keeps the 2xx ones).
 */
export function fire(options: autocannon.Options, onResponse?: (status: number, latencyMs: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error: unknown, result: autocannon.Result) => (error ? reject(error) : resolve(result)));
    if (onResponse) instance.on('response', (_client, status, _bytes, latency) => onResponse(status, latency));
  });
}

/** What every connection of a run sends, as autocannon options. */
function target(options: LoadOptions): autocannon.Options {
  return { url: options.url, method: options.method ?? 'GET', headers: options.headers, body: options.body, requests: options.requests };
}

/** One autocannon run, reduced to the figures the benchmark tables show; a run with a rate is evenly paced. */
export async function measure(options: LoadOptions): Promise<Measurement> {
  if (options.overallRate !== undefined) return measureEvenlyPaced(options, options.overallRate);
  const result = await fire({ ...target(options), connections: options.connections ?? 20, duration: options.durationSeconds ?? ROW_SECONDS });
  return {
    label: options.label,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}

/**
 * `count` autocannon runs of one connection each, the options of each from `optionsOf(index)`,
 * started 1/count s apart so that what each connection sends at the start of its second is
 * spread over the second instead of arriving together; `onResponse` sees every response of all,
 * with the index of its run.
 */
export async function fireStaggered(count: number, optionsOf: (index: number) => autocannon.Options, onResponse: (index: number, status: number, latencyMs: number) => void): Promise<autocannon.Result[]> {
  const runs: Promise<autocannon.Result>[] = [];
  const startedAt = performance.now();
  for (let index = 0; index < count; index += 1) {
    const wait = startedAt + (index * 1000) / count - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    runs.push(fire({ ...optionsOf(index), connections: 1, ignoreCoordinatedOmission: true }, (status, latencyMs) => onResponse(index, status, latencyMs)));
  }
  return Promise.all(runs);
}

/** Above this many requests a second, each connection of a paced run sends more than one a second. */
const MOST_PACED_CONNECTIONS = 100;

/**
 * A steady stream of requests at `rate` per second. autocannon's own overallRate does not give
 * one: every connection sends its quota for the second back to back when its second starts, and
 * all connections start together, so "200 req/s" is a burst of 200 each second and the
 * latencies mostly measure the queue autocannon built. Here each connection is a staggered
 * autocannon run of its own at its share of the rate. Latencies are those seen, of the 2xx
 * responses as in autocannon's histogram (no coordinated-omission back-fill; `connections` is
 * not used).
 */
async function measureEvenlyPaced(options: LoadOptions, rate: number): Promise<Measurement> {
  const connections = Math.min(rate, MOST_PACED_CONNECTIONS);
  const seconds = options.durationSeconds ?? ROW_SECONDS;
  const latencies: number[] = [];
  const results = await fireStaggered(connections, (index) => ({
    ...target(options),
    connectionRate: Math.floor(rate / connections) + (index < rate % connections ? 1 : 0),
    duration: seconds,
  }), (_index, status, latencyMs) => {
    if (status >= 200 && status < 300) latencies.push(latencyMs);
  });
  latencies.sort((a, b) => a - b);
  const requests = results.reduce((sum, result) => sum + result.requests.total, 0);
  const tenths = (ms: number) => Math.round(ms * 10) / 10;
  return {
    label: options.label,
    requestsPerSecond: Math.round(requests / seconds),
    p50: tenths(percentile(latencies, 50)),
    p99: tenths(percentile(latencies, 99)),
    errors: results.reduce((sum, result) => sum + result.errors + result.timeouts, 0),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    requests,
  };
}

export function table(rows: Measurement[]): string {
  const lines = ['| run | req/s | p50 ms | p99 ms | errors | non-2xx |', '| --- | ---: | ---: | ---: | ---: | ---: |'];
  for (const row of rows) lines.push(`| ${row.label} | ${row.requestsPerSecond} | ${row.p50} | ${row.p99} | ${row.errors} | ${row.non2xx} |`);
  return lines.join('\n');
}

export interface LatencyProbe {
  label: string;
  p50Micros: number;
  p99Micros: number;
}

/**
 * Unloaded latency with microsecond resolution: sequential requests over one keep-alive
 * connection (autocannon reports whole milliseconds).
 */
export async function probeLatency(label: string, url: string, headers: Record<string, string>, count = 3000): Promise<LatencyProbe> {
  const http = await import('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const once = () => new Promise<number>((resolve, reject) => {
    const started = process.hrtime.bigint();
    http.get(url, { agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(Number(process.hrtime.bigint() - started) / 1000));
    }).on('error', reject);
  });
  for (let i = 0; i < 200; i += 1) await once();
  const samples: number[] = [];
  for (let i = 0; i < count; i += 1) samples.push(await once());
  agent.destroy();
  samples.sort((a, b) => a - b);
  return { label, p50Micros: Math.round(percentile(samples, 50)), p99Micros: Math.round(percentile(samples, 99)) };
}

export function latencyTable(rows: LatencyProbe[]): string {
  const lines = ['| path | p50 µs | p99 µs |', '| --- | ---: | ---: |'];
  for (const row of rows) lines.push(`| ${row.label} | ${row.p50Micros} | ${row.p99Micros} |`);
  return lines.join('\n');
}

/** Processes a run watches, by name; a name without a pid (not running) is skipped. */
export type ProcessPids = Record<string, number | undefined>;

interface ProcessStatus {
  rssKb: number;
  /** Peak resident set since the process started or since its peak was last reset. */
  hwmKb: number;
  /** User and system CPU time of all its threads, in clock ticks. */
  cpuTicks: number;
}

/** Linux reports CPU time in ticks of 1/100 s (USER_HZ; `getconf CLK_TCK`). */
const TICK_MS = 10;

/** The fields of /proc/<pid>/stat after the command, which may hold spaces and parentheses. */
function statFields(pid: number | string): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Memory (VmRSS, VmHWM) and CPU time of a process from /proc, or undefined when it is gone. */
export function readProcess(pid: number): ProcessStatus | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    // utime and stime are fields 14 and 15 of stat, 12th and 13th after the command.
    const stat = statFields(pid);
    return { rssKb: field('VmRSS'), hwmKb: field('VmHWM'), cpuTicks: Number(stat[11]) + Number(stat[12]) };
  } catch {
    return undefined;
  }
}

/** Starts the peak (VmHWM) of a process of ours afresh, so it covers one run only. */
function resetPeak(pid: number): void {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not ours or not Linux: the peak then counts from the process start.
  }
}

const mb = (kb: number) => Math.round(kb / 1024);

export interface MemorySample {
  /** Milliseconds since the watch started. */
  atMs: number;
  rssMb: Record<string, number>;
}

export interface WatchedFigures {
  /** Peak RSS per process during the run, MB. */
  peakRssMb: Record<string, number>;
  /** CPU time per process during the run, ms. */
  cpuMs: Record<string, number>;
}

/**
 * Each process during a run: its peak resident memory (VmHWM, reset when the watch starts, so
 * it covers the run and not the boot; processes that appear later count from their start), a
 * VmRSS sample every `intervalMs`, and the CPU time it used (all threads).
 */
export class ProcessWatch {
  readonly samples: MemorySample[] = [];
  private readonly peaksKb = new Map<string, number>();
  private readonly cpu = new Map<string, { pid: number; firstTicks: number; lastTicks: number; earlierTicks: number }>();
  private timer?: NodeJS.Timeout;
  private startedAt = 0;

  constructor(private readonly processes: () => ProcessPids, private readonly intervalMs = 500) {}

  start(): this {
    for (const pid of Object.values(this.processes())) if (pid) resetPeak(pid);
    this.startedAt = Date.now();
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    return this;
  }

  stop(): WatchedFigures {
    clearInterval(this.timer);
    this.sample();
    return {
      peakRssMb: Object.fromEntries([...this.peaksKb].map(([name, kb]) => [name, mb(kb)])),
      cpuMs: Object.fromEntries([...this.cpu].map(([name, seen]) => [name, (seen.earlierTicks + seen.lastTicks - seen.firstTicks) * TICK_MS])),
    };
  }

  private sample(): void {
    const rssMb: Record<string, number> = {};
    for (const [name, pid] of Object.entries(this.processes())) {
      const status = pid ? readProcess(pid) : undefined;
      if (!pid || !status) continue;
      rssMb[name] = mb(status.rssKb);
      this.peaksKb.set(name, Math.max(this.peaksKb.get(name) ?? 0, status.hwmKb, status.rssKb));
      // CPU time counts from the first sample of a process; a restart (new pid) starts a new count.
      const seen = this.cpu.get(name);
      if (!seen) this.cpu.set(name, { pid, firstTicks: status.cpuTicks, lastTicks: status.cpuTicks, earlierTicks: 0 });
      else if (seen.pid !== pid) this.cpu.set(name, { pid, firstTicks: status.cpuTicks, lastTicks: status.cpuTicks, earlierTicks: seen.earlierTicks + seen.lastTicks - seen.firstTicks });
      else seen.lastTicks = status.cpuTicks;
    }
    this.samples.push({ atMs: Date.now() - this.startedAt, rssMb });
  }
}

/**
 * The stack's processes of a run started by another program (the jest webhook benchmark): the
 * root process as `bench` and each descendant started from `<name>/dist/start.js` under its name.
 */
export function processTree(rootPid: number, names: readonly string[]): ProcessPids {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parents.set(Number(entry), Number(statFields(entry)[1]));
    } catch {
      // exited meanwhile
    }
  }
  const descends = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) if (at === rootPid) return true;
    return false;
  };
  const found: ProcessPids = { bench: rootPid };
  for (const pid of parents.keys()) {
    if (!descends(pid)) continue;
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const name = names.find((candidate) => argv.some((arg) => arg.endsWith(`/${candidate}/dist/start.js`)));
    if (name) found[name] = pid;
  }
  return found;
}

/** A run of `npm run bench`'s summary: its figures, the peak RSS of every process and the CPU it cost. */
export interface SummaryRow extends Measurement {
  benchmark: string;
  peakRssMb: Record<string, number>;
  /** CPU time of the serving processes (all watched but the benchmark process) per request, ms; absent when not measured. */
  cpuMsPerRequest?: number;
}

/** The CPU the serving processes (every one but `bench`, the load generator) spent per request. */
export function cpuPerRequest(cpuMs: Record<string, number>, requests: number): number | undefined {
  if (requests === 0) return undefined;
  const serving = Object.entries(cpuMs).filter(([name]) => name !== 'bench').reduce((sum, [, ms]) => sum + ms, 0);
  return Math.round((10 * serving) / requests) / 10;
}

/**
 * Collects the summary rows of the runs it measures; each run watches the processes the
 * recorder was given.
 */
export class Recorder {
  constructor(readonly processes: () => ProcessPids, readonly rows: SummaryRow[] = []) {}

  /** The same table, with more processes watched (a benchmark's own helper processes). */
  including(extra: () => ProcessPids): Recorder {
    return new Recorder(() => ({ ...this.processes(), ...extra() }), this.rows);
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
    const { result, peakRssMb, cpuMs } = await this.watch(() => measure(options));
    return this.add({ ...result, benchmark, peakRssMb, cpuMsPerRequest: cpuPerRequest(cpuMs, result.requests) });
  }
}

/**
 * The summary: one row per run, the CPU the serving processes spent per request, and the peak
 * RSS in MB per column process; processes of a row outside the columns (a benchmark's own
 * helpers) are named in a note under the table.
 */
export function summaryTable(rows: SummaryRow[], columns: readonly string[], options: { benchmarkColumn?: boolean } = {}): string {
  const withBenchmark = options.benchmarkColumn ?? true;
  const lines = [
    `|${withBenchmark ? ' benchmark |' : ''} run | req/s | p50 ms | p99 ms | errors | non-2xx | CPU ms/req | ${columns.map((name) => `${name} MB`).join(' | ')} |`,
    `|${withBenchmark ? ' --- |' : ''} --- | ---: | ---: | ---: | ---: | ---: | ---: | ${columns.map(() => '---:').join(' | ')} |`,
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
    lines.push(`|${withBenchmark ? ` ${row.benchmark} |` : ''} ${label} | ${row.requestsPerSecond} | ${row.p50} | ${row.p99} | ${row.errors} | ${row.non2xx} | ${cpu} | ${memory.join(' | ')} |`);
  }
  if (notes.length > 0) lines.push('', ...notes.map((note, index) => `Note ${index + 1}: peak RSS of the benchmark's own processes in that run: ${note}.`));
  return lines.join('\n');
}
