// Evenly paced estimates against a running stack (`npm start`): one request every 1/rate s,
// unlike autocannon's overallRate, which sends each second's quota in a burst and so measures
// its own queue. Usage: node bench/scripts/paced-estimate.mjs [rate=200] [seconds=10]
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const gateway = new URL(process.env.PARTNER_API_URL ?? 'http://127.0.0.1:8080');
const key = process.env.PARTNER_API_KEY ?? 'sbx_acme_7f3c2a91d4e6b8f0a1c3e5d7b9f1a2c4';
const rate = Number(process.argv[2] ?? 200);
const seconds = Number(process.argv[3] ?? 10);
const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
const body = JSON.stringify({ durations: [12, 24, 36, 48, 60], calculationTypes: ['leasing', 'rent', 'rent_to_own'], acquisitionCost: 2499.99, serviceCost: 10, productSector: 'IT_AND_OFFICE_EQUIPMENT' });

function estimate() {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.request({
      host: gateway.hostname, port: gateway.port, path: '/api/calculate/estimate', method: 'POST', agent,
      headers: { 'X-Api-Key': key, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

for (let warmUp = 0; warmUp < 300; warmUp += 1) await estimate();
const latencies = [];
const statuses = {};
const started = performance.now();
const inFlight = [];
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
const percentile = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
console.log(`${rate} req/s for ${seconds} s: statuses ${JSON.stringify(statuses)}, p50 ${percentile(0.5)} ms, p90 ${percentile(0.9)} ms, p99 ${percentile(0.99)} ms, max ${percentile(1)} ms`);
agent.destroy();
