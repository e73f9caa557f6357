import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type autocannon from 'autocannon';
import { connectDatabase } from '@rental/db';
import { DEMO_SEED_FILE, SeedFile, readSeedFile } from '@rental/stack';
import { ApiClient, Stack, bootStack, fixturePartnerKey, growCases, operatorAccessToken, runDate, shutdownStack } from '@rental/testkit';
import { measureTick } from './clock-tick';
import { Measurement, measure } from './load';
import { report } from './report';
import { CHECKOUT, JSON_TYPE, newCartRequest, checkedOutCases, idempotencyKey } from './requests';

// Issue 34: what the hot reads cost as the cases grow. One stack, a few dozen cases made through
// the API (some moved on to a contract), then copied inside Postgres up to each size in turn
// (growCases of the test kit: new ids, numbers, partners and dates, with their items, history,
// contracts, submissions, requested items and documents); at each size the same rows.

const SIZES = (process.env.BENCH_SCALE_SIZES ?? '10000,100000,1000000').split(',').map((size) => Number(size.trim()));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const TEMPLATES = 30;
const PARTNERS = 300;
const DUE = 1_000;
const DEEP_PAGE = 50;
const TITLE = 'Cost as the cases grow';

/** A fixture viewer's access token, as a program of the approval team gets one. */
async function operatorToken(stack: Stack): Promise<string> {
  const operator = readSeedFile(DEMO_SEED_FILE).operators.find((candidate) => candidate.roles.includes('viewer'));
  if (!operator) throw new Error('no viewer in the fixture');
  return operatorAccessToken(stack.gatewayUrl, operator);
}

/**
 * The partners growCases spreads cases over (scale-partner-00000 …), like acme: the back office
 * shows each one's name, as it does for real partners.
 */
function partners(): SeedFile {
  const fixture = readSeedFile(DEMO_SEED_FILE);
  const acme = fixture.partners.find((partner) => partner.id === 'acme')!;
  return {
    ...fixture,
    partners: Array.from({ length: PARTNERS }, (_, index) => {
      const id = `scale-partner-${String(index).padStart(5, '0')}`;
      return {
        ...acme,
        id,
        name: `Scale Partner ${index}`,
        apiKeys: [{ key: `scale_${id}_${randomBytes(12).toString('hex')}`, environment: 'sandbox' as const, roles: ['api_user'] }],
        // A partner user's id and e-mail are unique across partners: the copies have none.
        users: [],
      };
    }),
  };
}

/** Template cases through the API; a third moved on to a contract waiting for signing. */
async function makeTemplates(stack: Stack): Promise<void> {
  const api = new ApiClient(stack.gatewayUrl, fixturePartnerKey('acme'));
  const ids = await checkedOutCases(api, TEMPLATES);
  for (const id of ids.slice(0, TEMPLATES / 3)) {
    for (const scenario of ['finance_accepted', 'wait_for_signing']) {
      const response = await api.post(`/api/sandbox/financing_cases/${id}/simulate`, { scenario });
      if (response.status !== 204) throw new Error(`simulate ${scenario} gave ${response.status}: ${response.text}`);
    }
  }
}

/**
 * 1,000 quotes due a reminder at the next tick: grown quotes in review are as old as their copy
 * made them, so every quote in review is first made recent (none due), then 1,000 without a
 * contract are put in review four days ago.
 */
async function makeDue(stack: Stack): Promise<void> {
  const db = connectDatabase({ url: stack.databaseUrl, schema: 'case_workflow', poolMax: 1 });
  try {
    await db.raw(
      "UPDATE quotes SET review_mailed_at = now(), in_review_since = now() WHERE status = 'in_review' AND (review_mailed_at < now() - interval '1 day' OR in_review_since < now() - interval '1 day')",
    );
    await db.raw(
      `
      UPDATE quotes SET status = 'in_review', reminder_count = 0, in_review_since = now() - interval '4 days', review_mailed_at = now() - interval '4 days'
      WHERE id IN (SELECT q.id FROM quotes q WHERE q.quote_number LIKE 'Q-S-%' AND NOT EXISTS (SELECT 1 FROM contracts c WHERE c.quote_id = q.id) ORDER BY q.id LIMIT ?)`,
      [DUE],
    );
    await db.raw('ANALYZE quotes');
  } finally {
    await db.destroy();
  }
}

interface Row {
  label: string;
  run: (seconds: number) => Promise<Measurement>;
}

function rowsOf(stack: Stack, token: string, caseIds: string[], lenderSubmissionStatus: string): Row[] {
  const partner = { 'X-Api-Key': fixturePartnerKey('acme') };
  const operator = { Authorization: `Bearer ${token}` };
  const get = (label: string, path: string, headers: Record<string, string>): Row => ({
    label,
    run: (seconds) => measure({ label, url: `${stack.gatewayUrl}${path}`, headers, connections: 10, durationSeconds: seconds }),
  });
  let next = 0;
  const oneCase: autocannon.Request = {
    method: 'GET',
    setupRequest: (request) => ({ ...request, path: `/api/financing_cases/${caseIds[(next += 1) % caseIds.length]}` }),
  };
  const carts: string[] = [];
  const checkout: autocannon.Request[] = [
    newCartRequest(carts),
    {
      method: 'POST',
      body: JSON.stringify(CHECKOUT),
      setupRequest: (request) => ({
        ...request,
        path: `/api/carts/${carts.shift() ?? 'none'}/checkout`,
        headers: { ...request.headers, ...JSON_TYPE, ...idempotencyKey() },
      }),
    },
  ];
  return [
    get('GET /api/financing_cases (page 1)', '/api/financing_cases', partner),
    get(`GET /api/financing_cases?page=${DEEP_PAGE}`, `/api/financing_cases?page=${DEEP_PAGE}`, partner),
    {
      label: 'GET /api/financing_cases/{id}',
      run: (seconds) =>
        measure({ label: 'case by id', url: stack.gatewayUrl, headers: partner, connections: 10, durationSeconds: seconds, requests: [oneCase] }),
    },
    get('GET /ops/v1/cases', '/ops/v1/cases', operator),
    get('GET /ops/v1/cases?page=200', '/ops/v1/cases?page=200', operator),
    get('GET /ops/v1/cases?status=finance_review', '/ops/v1/cases?status=finance_review', operator),
    get('GET /ops/v1/cases?status=in_review,finance_accepted', '/ops/v1/cases?status=in_review,finance_accepted', operator),
    get('GET /ops/v1/cases?partnerId=acme', '/ops/v1/cases?partnerId=acme', operator),
    get(`GET /ops/v1/cases?lenderSubmissionStatus=${lenderSubmissionStatus}`, `/ops/v1/cases?lenderSubmissionStatus=${lenderSubmissionStatus}`, operator),
    get('GET /ops/v1/cases?overdue=true', '/ops/v1/cases?overdue=true', operator),
    get('GET /ops/v1/cases?q=<case number>', '/ops/v1/cases?q=FC-S-000004242', operator),
    get('GET /ops/v1/cases?q=<company>', `/ops/v1/cases?q=${encodeURIComponent('Company 1234 GmbH')}`, operator),
    {
      label: 'POST /api/carts + checkout (pairs)',
      run: (seconds) => measure({ label: 'checkout', url: stack.gatewayUrl, headers: partner, connections: 10, durationSeconds: seconds, requests: checkout }),
    },
  ];
}

const cell = (measurement: Measurement) =>
  `${measurement.requestsPerSecond} req/s, ${measurement.p50}/${measurement.p99} ms${measurement.errors + measurement.non2xx > 0 ? ` (${measurement.errors} errors, ${measurement.non2xx} non-2xx)` : ''}`;

void (async () => {
  // The clock ticks every 10 s (nothing due while the rows run; the first tick after a restart
  // is measured); no review expires while the grown cases sit in review.
  const stack = await bootStack({ env: { SCHEDULER_TICK: '10s', REVIEW_REMINDER_AFTER: '3d', REVIEW_EXPIRY_AFTER: '3650d', LOG_LEVEL: 'warn' } });
  const results: { size: number; growSeconds: number; rows: Map<string, string>; tickMs: number; reminders: number; load: string }[] = [];
  try {
    await stack.seed(partners());
    await makeTemplates(stack);
    const acme = new ApiClient(stack.gatewayUrl, fixturePartnerKey('acme'));
    for (const size of SIZES) {
      const started = Date.now();
      await growCases(stack.databaseUrl, { target: size, partners: PARTNERS });
      const growSeconds = Math.round((Date.now() - started) / 1000);
      process.stdout.write(`grown to ${size} cases in ${growSeconds} s\n`);
      const token = await operatorToken(stack);
      const page = await acme.get('/api/financing_cases');
      const caseIds = (page.json as { id: string }[]).map((financingCase) => financingCase.id);
      const db = connectDatabase({ url: stack.databaseUrl, schema: 'case_workflow', poolMax: 1 });
      // The copy's dirty pages are written now, not by a checkpoint in the middle of the rows.
      await db.raw('CHECKPOINT');
      const [submission] = (await db('quotes')
        .whereNotNull('lender_submission_status')
        .groupBy('lender_submission_status')
        .orderByRaw('count(*)')
        .select('lender_submission_status')
        .limit(1)) as { lender_submission_status: string }[];
      await db.destroy();
      const rows = new Map<string, string>();
      const load = os
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(' ');
      const rowsOfSize = rowsOf(stack, token, caseIds, submission?.lender_submission_status ?? 'pending');
      // Warm-up: each read once briefly, so the first row does not pay for the cold caches alone.
      for (const row of rowsOfSize.slice(0, -1)) await row.run(2);
      for (const row of rowsOfSize) {
        const measured = await row.run(SECONDS);
        rows.set(row.label, cell(measured));
        process.stdout.write(`${size} ${row.label}: ${cell(measured)}\n`);
      }
      const tick = await measureTick(stack, () => makeDue(stack));
      process.stdout.write(`${size} clock tick: ${Math.round(tick.seconds * 1000)} ms, ${tick.reminders} reminders\n`);
      results.push({ size, growSeconds, rows, tickMs: Math.round(tick.seconds * 1000), reminders: tick.reminders, load });
    }
  } finally {
    await shutdownStack(stack);
  }
  const labels = [...results[0]!.rows.keys()];
  const sizes = results.map((result) => result.size.toLocaleString('en'));
  report(
    TITLE,
    [
      `Command: \`BENCH_SCALE_SIZES=${SIZES.join(',')} npm run bench:scale\` (${runDate()}; ${SECONDS} s per row, autocannon with 10 connections through the gateway; acme's sandbox key for the partner rows, a viewer's token for the back office). ${TEMPLATES} cases made through checkout (a third moved on to a contract waiting for signing), then copied inside Postgres to each size (\`growCases\` of the test kit: new ids, numbers, partners and dates; 20 % stay with acme, the rest spread over ${PARTNERS} partners, a few big; with items, history, contracts, lender submissions, requested items and documents), vacuumed, analyzed and checkpointed, then every read warmed up for 2 s. Deep partner page: ?page=${DEEP_PAGE} (acme holds 20 % of the cases). Each cell: req/s, p50/p99 ms. Clock tick: ${DUE.toLocaleString('en')} quotes due a reminder, one tick after a restart of case-workflow (its histogram). Load average (1, 5, 15 min) when the size's rows began: ${results.map((result) => `${result.size.toLocaleString('en')}: ${result.load}`).join('; ')}; the machine's 2 cores are shared with other work, so single figures are noisy.`,
      '',
      `| operation | ${sizes.join(' | ')} |`,
      `| --- | ${sizes.map(() => '---').join(' | ')} |`,
      ...labels.map((label) => `| ${label} | ${results.map((result) => result.rows.get(label)).join(' | ')} |`),
      `| clock tick, ${DUE.toLocaleString('en')} due | ${results.map((result) => `${result.tickMs} ms, ${result.reminders} reminders`).join(' | ')} |`,
      `| growing to the size (copy, vacuum, analyze) | ${results.map((result) => `${result.growSeconds} s`).join(' | ')} |`,
    ].join('\n'),
  );
})().catch((error: unknown) => {
  process.stderr.write(`bench:scale failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
