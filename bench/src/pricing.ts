import { bootStack, fixturePartnerKey, runDate, shutdownStack, writeBenchmarkSection } from '@rental/testkit';
import { measure, table } from './measure';

const HEADERS = { 'X-Api-Key': fixturePartnerKey('acme'), 'Content-Type': 'application/json' };
const ESTIMATE = { durations: [12, 24, 36, 48, 60], calculationTypes: ['leasing', 'rent', 'rent_to_own'], acquisitionCost: 2499.99, serviceCost: 10, productSector: 'IT_AND_OFFICE_EQUIPMENT' };
const BULK = { items: Array.from({ length: 50 }, (_, index) => ({ ...ESTIMATE, acquisitionCost: 1000 + index })) };

async function main(): Promise<void> {
  const stack = await bootStack();
  try {
    const estimateUrl = `${stack.gatewayUrl}/api/calculate/estimate`;
    const bulkUrl = `${stack.gatewayUrl}/api/calculate/estimate/bulk`;
    const post = (body: unknown) => ({ method: 'POST' as const, headers: HEADERS, body: JSON.stringify(body) });
    await measure({ label: 'warm-up', url: estimateUrl, ...post(ESTIMATE), durationSeconds: 3 });
    const rows = [
      await measure({ label: 'estimate, 3 types × 5 durations (200 req/s)', url: estimateUrl, ...post(ESTIMATE), connections: 10, overallRate: 200 }),
      await measure({ label: 'estimate (saturated, 20 connections)', url: estimateUrl, ...post(ESTIMATE) }),
      await measure({ label: 'bulk estimate of 50 items (20 req/s)', url: bulkUrl, ...post(BULK), connections: 4, overallRate: 20 }),
      await measure({ label: 'bulk estimate of 50 items (saturated, 8 connections)', url: bulkUrl, ...post(BULK), connections: 8 }),
    ];
    const body = [
      `Command: \`npm run bench:pricing\` (${runDate()}; 10 s per row, through the gateway with acme's sandbox key; autocannon, the gateway, pricing and Postgres share the 2 cores). Targets: estimate p99 under 20 ms at 200 req/s; bulk of 50 under 50 ms p99.`,
      '',
      table(rows),
    ].join('\n');
    writeBenchmarkSection('Pricing', body);
    process.stdout.write(`${body}\n`);
  } finally {
    await shutdownStack(stack);
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
