import autocannon from 'autocannon';

export interface Measurement {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  label: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  /** Fixed request rate (requests per second over all connections); unset: as fast as possible. */
  overallRate?: number;
  durationSeconds?: number;
}

/** One autocannon run, reduced to the figures the benchmark tables show. */
export async function measure(options: LoadOptions): Promise<Measurement> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 20,
    overallRate: options.overallRate,
    duration: options.durationSeconds ?? 10,
  });
  return {
    label: options.label,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
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
  const at = (q: number) => Math.round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0);
  return { label, p50Micros: at(0.5), p99Micros: at(0.99) };
}

export function latencyTable(rows: LatencyProbe[]): string {
  const lines = ['| path | p50 µs | p99 µs |', '| --- | ---: | ---: |'];
  for (const row of rows) lines.push(`| ${row.label} | ${row.p50Micros} | ${row.p99Micros} |`);
  return lines.join('\n');
}
