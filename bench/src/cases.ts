import { ApiClient, fixturePartnerKey, runDate } from '@rental/testkit';
import { DirectAccess, againstDirect } from './direct';
import { BenchContext, runAlone } from './harness';
import { ROW_SECONDS, measure } from './load';
import { reportRuns } from './report';
import { casesOf, roundRobin } from './requests';

const BENCHMARK = 'case reads';

/** The list (a full page of 30 cases) and single cases of acme, which checkouts fill up first. */
export async function casesBench({ stack, recorder }: BenchContext): Promise<void> {
  const key = fixturePartnerKey('acme');
  const ids = await casesOf(new ApiClient(stack.gatewayUrl, key), 30);
  const nextCase = roundRobin(ids);
  const base = { url: stack.gatewayUrl, headers: { 'X-Api-Key': key }, connections: 10 };
  const list = { ...base, url: `${stack.gatewayUrl}/api/financing_cases` };
  const one = {
    ...base,
    requests: [{ method: 'GET' as const, setupRequest: (request: object) => ({ ...request, path: `/api/financing_cases/${nextCase()}` }) }],
  };
  await measure({ label: 'warm-up', ...list, durationSeconds: 2 });
  await measure({ label: 'warm-up', ...one, durationSeconds: 2 });
  const direct = new DirectAccess(stack);
  const saturatedList = await recorder.measure(BENCHMARK, { label: 'GET /api/financing_cases, page of 30 (saturated, 10 connections)', ...list });
  const saturatedListDirect = await recorder.measure(BENCHMARK, {
    label: 'GET /api/financing_cases, page of 30, case-workflow direct (saturated, 10 connections)',
    url: `${direct.url('case-workflow')}/api/financing_cases`,
    headers: await direct.headers(),
    connections: 10,
  });
  const rows = [
    againstDirect(saturatedList, saturatedListDirect),
    saturatedListDirect,
    await recorder.measure(BENCHMARK, { label: 'GET /api/financing_cases, page of 30 (20 req/s)', ...list, overallRate: 20 }),
    await recorder.measure(BENCHMARK, { label: 'GET /api/financing_cases/{id}, 30 cases in turn (saturated, 10 connections)', ...one }),
    await recorder.measure(BENCHMARK, { label: 'GET /api/financing_cases/{id} (100 req/s)', ...one, overallRate: 100 }),
  ];
  reportRuns(
    'Case reads',
    `Command: \`npm run bench:cases\` (${runDate()}; ${ROW_SECONDS} s per row, through the gateway with acme's sandbox key; the saturated list also straight to case-workflow with the identity the gateway would sign, as its reference). acme's newest 30 cases (checked out by \`bench:checkout\` in \`npm run bench\`, or created first when alone): the list answers a full page, each case with the requested items documents holds for it; the single reads take the 30 cases in turn.`,
    rows,
  );
}

if (require.main === module) runAlone('bench:cases', casesBench);
