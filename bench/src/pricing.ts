import { fixturePartnerKey, runDate } from '@rental/testkit';
import { DirectAccess, againstDirect } from './direct';
import { BenchContext, runAlone } from './harness';
import { ROW_SECONDS, measure } from './load';
import { report, table } from './report';
import { ESTIMATE } from './requests';

const HEADERS = { 'X-Api-Key': fixturePartnerKey('acme'), 'Content-Type': 'application/json' };
const BULK = { items: Array.from({ length: 50 }, (_, index) => ({ ...ESTIMATE, acquisitionCost: 1000 + index })) };

export async function pricingBench({ stack, recorder }: BenchContext): Promise<void> {
  const estimateUrl = `${stack.gatewayUrl}/api/calculate/estimate`;
  const bulkUrl = `${stack.gatewayUrl}/api/calculate/estimate/bulk`;
  const post = (body: unknown) => ({ method: 'POST' as const, headers: HEADERS, body: JSON.stringify(body) });
  await measure({ label: 'warm-up', url: estimateUrl, ...post(ESTIMATE), durationSeconds: 3 });
  const direct = new DirectAccess(stack);
  const estimateDirect = {
    url: `${direct.url('pricing')}/api/calculate/estimate`,
    method: 'POST' as const,
    headers: { ...(await direct.headers()), 'Content-Type': 'application/json' },
    body: JSON.stringify(ESTIMATE),
  };
  const saturatedEstimate = await recorder.measure('pricing', { label: 'estimate (saturated, 20 connections)', url: estimateUrl, ...post(ESTIMATE) });
  const saturatedEstimateDirect = await recorder.measure('pricing', { label: 'estimate, pricing direct (saturated, 20 connections)', ...estimateDirect });
  const rows = [
    await recorder.measure('pricing', { label: 'estimate, 3 types × 5 durations (200 req/s)', url: estimateUrl, ...post(ESTIMATE), overallRate: 200 }),
    againstDirect(saturatedEstimate, saturatedEstimateDirect),
    saturatedEstimateDirect,
    await recorder.measure('pricing', { label: 'bulk estimate of 50 items (20 req/s)', url: bulkUrl, ...post(BULK), overallRate: 20 }),
    await recorder.measure('pricing', { label: 'bulk estimate of 50 items (saturated, 8 connections)', url: bulkUrl, ...post(BULK), connections: 8 }),
  ];
  const body = [
    `Command: \`npm run bench:pricing\` (${runDate()}; ${ROW_SECONDS} s per row, through the gateway with acme's sandbox key, and the saturated estimate also straight to pricing with the identity the gateway would sign, as its reference; autocannon, the gateway, pricing and Postgres share the 2 cores). Targets: estimate p99 under 20 ms at 200 req/s; bulk of 50 under 50 ms p99. Paced rows send their requests evenly spread over each second and report the latencies seen (see the summary).`,
    '',
    table(rows),
  ].join('\n');
  report('Pricing', body);
}

if (require.main === module) runAlone('bench:pricing', pricingBench);
