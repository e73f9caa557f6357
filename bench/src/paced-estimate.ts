import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { fixturePartnerKey } from '@rental/testkit';
import { percentile } from './measure';
import { ESTIMATE } from './requests';

/**
 * Evenly paced estimates against a running stack (`npm start`): one request every 1/rate s,
 * unlike autocannon's overallRate, which sends each second's quota in a burst and so measures
 * its own queue. Usage: npm run bench:estimate-paced -- [rate=200] [seconds=10]
 */
const gateway = new URL(process.env.PARTNER_API_URL ?? 'http://127.0.0.1:8080');
const key = process.env.PARTNER_API_KEY ?? fixturePartnerKey('acme');
const rate = Number(process.argv[2] ?? 200);
const seconds = Number(process.argv[3] ?? 10);
const WARM_UP_REQUESTS = 300;
const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
const body = JSON.stringify(ESTIMATE);

function estimate(): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.request({
      host: gateway.hostname, port: gateway.port, path: '/api/calculate/estimate', method: 'POST', agent,
      headers: { 'X-Api-Key': key, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function main(): Promise<void> {
  for (let warmUp = 0; warmUp < WARM_UP_REQUESTS; warmUp += 1) await estimate();
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let index = 0; index < rate * seconds; index += 1) {
    const wait = started + (index * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(estimate().then(({ status, ms }) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      latencies.push(ms);
    }));
  }
  await Promise.all(inFlight);
  latencies.sort((a, b) => a - b);
  const at = (p: number) => percentile(latencies, p).toFixed(1);
  process.stdout.write(`${rate} req/s for ${seconds} s: statuses ${JSON.stringify(statuses)}, p50 ${at(50)} ms, p90 ${at(90)} ms, p99 ${at(99)} ms, max ${at(100)} ms\n`);
  agent.destroy();
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:estimate-paced failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
