import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { percentile } from '@rental/testkit';

// Measuring load: autocannon runs (as fast as possible, or evenly paced at a rate) and the
// unloaded latency probe, each reduced to the figures the tables show.

export interface Measurement {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Responses in the run. */
  requests: number;
  /** The load generator that made the row (a LoadTool, or what else drove it). */
  tool: string;
}

/**
 * autocannon runs in the benchmark process (JavaScript, sharing the 2 cores); wrk (C, Debian's
 * `wrk`) loads the stack with less of them, so the saturated rows of a fast path use it when it
 * is installed: there autocannon itself was the bottleneck.
 */
export type LoadTool = 'autocannon' | 'wrk';

const WRK = '/usr/bin/wrk';
export const wrkInstalled = (): boolean => fs.existsSync(WRK);

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
  /** wrk for a saturated GET when it is installed (autocannon otherwise, and for everything else). */
  tool?: LoadTool;
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
  if (options.tool === 'wrk' && wrkInstalled() && !options.body && !options.requests) return measureWithWrk(options);
  const result = await fire({ ...target(options), connections: options.connections ?? 20, duration: options.durationSeconds ?? ROW_SECONDS });
  return {
    label: options.label,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
    tool: 'autocannon',
  };
}

/** wrk's durations (`812.00us`, `1.25ms`, `2.00s`) in ms. */
function wrkMs(text: string): number {
  const [, value = '0', unit = 'ms'] = /([\d.]+)(us|ms|s|m)/.exec(text) ?? [];
  const factor = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit] ?? 1;
  return Math.round(Number(value) * factor * 100) / 100;
}

/**
 * One saturated wrk run (one thread, `connections` connections). wrk counts 3xx with 2xx and
 * reports percentiles of all answers; a row with non-2xx answers is a failed row anyway.
 */
async function measureWithWrk(options: LoadOptions): Promise<Measurement> {
  const seconds = options.durationSeconds ?? ROW_SECONDS;
  const headerArguments = Object.entries(options.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const { stdout } = await promisify(execFile)(WRK, ['-t1', `-c${options.connections ?? 20}`, `-d${seconds}s`, '--latency', ...headerArguments, options.url]);
  const figure = (pattern: RegExp) => pattern.exec(stdout)?.[1] ?? '0';
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  return {
    label: options.label,
    requestsPerSecond: Math.round(Number(figure(/Requests\/sec:\s+([\d.]+)/))),
    p50: wrkMs(figure(/^\s+50%\s+(\S+)/m)),
    p99: wrkMs(figure(/^\s+99%\s+(\S+)/m)),
    errors: socketErrors ? socketErrors.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0,
    non2xx: Number(figure(/Non-2xx or 3xx responses: (\d+)/)),
    requests: Number(figure(/(\d+) requests in/)),
    tool: 'wrk',
  };
}

/**
 * `count` autocannon runs of one connection each, the options of each from `optionsOf(index)`,
 * started 1/count s apart so that what each connection sends at the start of its second is
 * spread over the second instead of arriving together; `onResponse` sees every response of all,
 * with the index of its run.
 */
export async function fireStaggered(
  count: number,
  optionsOf: (index: number) => autocannon.Options,
  onResponse: (index: number, status: number, latencyMs: number) => void,
): Promise<autocannon.Result[]> {
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
  const results = await fireStaggered(
    connections,
    (index) => ({
      ...target(options),
      connectionRate: Math.floor(rate / connections) + (index < rate % connections ? 1 : 0),
      duration: seconds,
    }),
    (_index, status, latencyMs) => {
      if (status >= 200 && status < 300) latencies.push(latencyMs);
    },
  );
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
    tool: 'autocannon',
  };
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
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const started = process.hrtime.bigint();
      http
        .get(url, { agent, headers }, (response) => {
          response.resume();
          response.on('end', () => resolve(Number(process.hrtime.bigint() - started) / 1000));
        })
        .on('error', reject);
    });
  for (let i = 0; i < 200; i += 1) await once();
  const samples: number[] = [];
  for (let i = 0; i < count; i += 1) samples.push(await once());
  agent.destroy();
  samples.sort((a, b) => a - b);
  return { label, p50Micros: Math.round(percentile(samples, 50)), p99Micros: Math.round(percentile(samples, 99)) };
}
