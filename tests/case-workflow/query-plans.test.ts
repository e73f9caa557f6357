import { CaseRepository, ClockRepository, OpsReadsRepository } from '@rental/case-workflow';
import { Client } from 'pg';
import { Knex, connectDatabase } from '@rental/db';
import type { OpsQueueFilters } from '@rental/proto';
import { ApiClient, Stack, bootStack, fixturePartnerKey, growCases, shutdownStack } from '@rental/testkit';
import { createCaseViaGrpc } from '../support/cases';
import { rows } from '../support/database';

/**
 * Issue 34: the hot reads cost the same at any number of cases. On a stack grown to 20,000 cases
 * inside Postgres (and analyzed), the plan of every statement each read runs scans no table that
 * grows with cases from end to end: each is served by an index.
 */

const CASES = 20_000;
const GROWING = new Set([
  'financing_cases',
  'quotes',
  'quote_items',
  'quote_feedbacks',
  'authorized_persons',
  'financing_responses',
  'contracts',
  'signature_envelopes',
  'lender_submissions',
  'case_history',
  'customer_links',
  'provider_envelopes',
]);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function seqScans(node: PlanNode): string[] {
  const own = node['Node Type'] === 'Seq Scan' && node['Relation Name'] && GROWING.has(node['Relation Name']) ? [node['Relation Name']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(seqScans)];
}

let stack: Stack;
let db: Knex;
let explainer: Client;
let statements: { sql: string; bindings: readonly unknown[] }[] = [];
const settings = { environment: 'sandbox', subject: 'unused', mailSubject: 'unused', now: () => new Date() };
const queue = (filters: Partial<OpsQueueFilters>): OpsQueueFilters => ({
  statuses: [],
  partnerId: null,
  lenderSubmissionStatus: null,
  query: null,
  onlyCases: null,
  limit: 30,
  offset: 0,
  ...filters,
});

/** The statements `read` runs, each with the tables its plan scans sequentially. */
async function scansOf(read: () => Promise<unknown>): Promise<{ sql: string; seqScans: string[] }[]> {
  statements = [];
  await read();
  const ran = statements;
  expect(ran.length).toBeGreaterThan(0);
  const plans = [];
  for (const { sql, bindings } of ran) {
    // The statement as knex sent it ($1, $2, …), planned for its values like an unnamed statement.
    const result = await explainer.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) ${sql}`, bindings as unknown[]);
    plans.push({ sql, seqScans: seqScans(result.rows[0]!['QUERY PLAN'][0]!.Plan) });
  }
  return plans;
}

const indexedOnly = (plans: { sql: string; seqScans: string[] }[]) => expect(plans.filter((plan) => plan.seqScans.length > 0)).toEqual([]);

beforeAll(async () => {
  stack = await bootStack();
  // Templates made the way checkout makes them: a financing request and a plain quote.
  await createCaseViaGrpc(stack, 'acme', { submitFinancing: true });
  await createCaseViaGrpc(stack, 'acme', { submitFinancing: false });
  // One with a financing response and a contract waiting for signing.
  const accepted = await createCaseViaGrpc(stack, 'acme', { submitFinancing: true });
  const api = new ApiClient(stack.gatewayUrl, fixturePartnerKey('acme'));
  for (const scenario of ['finance_accepted', 'wait_for_signing']) {
    const simulated = await api.post(`/api/sandbox/financing_cases/${accepted.financingCaseId}/simulate`, { scenario });
    expect([simulated.status, simulated.text]).toEqual([204, '']);
  }
  // A feedback and a signer, which the sandbox moves above do not make, so their tables grow too.
  await rows(
    stack.databaseUrl,
    "INSERT INTO quote_feedbacks (quote_id, text, action, created_at) VALUES ($1, 'Please add the delivery address.', 'request_changes', now())",
    [accepted.quoteId],
    'case_workflow',
  );
  await rows(
    stack.databaseUrl,
    "INSERT INTO authorized_persons (quote_id, first_name, last_name, email, created_at, updated_at) VALUES ($1, 'Erika', 'Mustermann', 'erika@customer.example', now(), now())",
    [accepted.quoteId],
    'case_workflow',
  );
  await growCases(stack.databaseUrl, { target: CASES });
  db = connectDatabase({ url: stack.databaseUrl, schema: 'case_workflow', poolMax: 2 });
  explainer = new Client({ connectionString: stack.databaseUrl });
  await explainer.connect();
  await explainer.query('SET search_path TO case_workflow');
  db.on('query', (query: { sql: string; bindings?: readonly unknown[] }) => statements.push({ sql: query.sql, bindings: query.bindings ?? [] }));
}, 180_000);

afterAll(async () => {
  await db?.destroy();
  await explainer?.end();
  if (stack) await shutdownStack(stack);
});

describe('on 20,000 cases every hot read is served by indexes', () => {
  test('the database holds the grown cases, spread over partners', async () => {
    const [counts] = await rows<{ cases: string; acme: string; partners: string }>(
      stack.databaseUrl,
      "SELECT count(*) AS cases, count(*) FILTER (WHERE partner_id = 'acme') AS acme, count(DISTINCT partner_id) AS partners FROM case_workflow.financing_cases",
    );
    expect(Number(counts!.cases)).toBe(CASES);
    expect(Number(counts!.acme)).toBeGreaterThan(1_500);
    expect(Number(counts!.partners)).toBeGreaterThan(50);
    const [contracts] = await rows<{ count: string }>(stack.databaseUrl, 'SELECT count(*) AS count FROM case_workflow.contracts');
    expect(Number(contracts!.count)).toBeGreaterThan(5_000);
  });

  test("the partner list, page 1 and a deep page, picks the page from the partner's index", async () => {
    const store = new CaseRepository(db, settings);
    indexedOnly(await scansOf(() => store.listCases('acme', 30, 0)));
    indexedOnly(await scansOf(() => store.listCases('acme', 30, 1_470)));
    const [first, deep] = [await store.listCases('acme', 30, 0), await store.listCases('acme', 30, 1_470)];
    expect([first.length, deep.length]).toEqual([30, 30]);
    const all: { id: string }[] = await db('financing_cases')
      .where({ partner_id: 'acme' })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .select('id');
    expect(deep.map((financingCase) => financingCase.id)).toEqual(all.slice(1_470, 1_500).map((row) => row.id));
  });

  test('a case by id, with its quote, contract, lender submissions and history', async () => {
    const store = new CaseRepository(db, settings);
    const reads = new OpsReadsRepository(db);
    const [{ id, quote_id: quoteId, contract_id: contractId }] = await db('financing_cases as fc')
      .join('quotes as q', 'q.financing_case_id', 'fc.id')
      .leftJoin('contracts as c', 'c.quote_id', 'q.id')
      .where('fc.case_number', 'FC-S-000012345')
      .select('fc.id', 'q.id as quote_id', 'c.id as contract_id');
    indexedOnly(await scansOf(() => store.findCase(id)));
    indexedOnly(await scansOf(() => store.findQuoteDetails(quoteId)));
    indexedOnly(await scansOf(() => store.listHistory(id)));
    indexedOnly(await scansOf(() => reads.listLenderSubmissions(id)));
    if (contractId) indexedOnly(await scansOf(() => store.findContract(contractId)));
  });

  test('the ops queue, plain, by each filter, deep, and searched by case number, quote number and company', async () => {
    const reads = new OpsReadsRepository(db);
    const [{ status, lender_submission_status: lenderStatus }] = await db('quotes')
      .whereNotNull('lender_submission_status')
      .select('status', 'lender_submission_status')
      .limit(1);
    for (const filters of [
      queue({}),
      queue({ offset: 6_000 }),
      queue({ statuses: [status] }),
      queue({ statuses: ['finance_review', 'in_review'] }),
      queue({ partnerId: 'acme' }),
      queue({ partnerId: 'scale-partner-00042', offset: 30 }),
      queue({ lenderSubmissionStatus: lenderStatus }),
      queue({ onlyCases: ['7ZC00000000000000000000012', '7ZC00000000000000000000013'] }),
      queue({ query: 'FC-S-000012345' }),
      queue({ query: 'Q-S-000012345' }),
      queue({ query: 'Company 4242 GmbH' }),
      queue({ query: 'FIN-S-12345', statuses: [status] }),
    ]) {
      indexedOnly(await scansOf(() => reads.listQueue(filters)));
    }
    const found = await reads.listQueue(queue({ query: 'fc-s-000012345' }));
    expect(found.map((entry) => entry.caseNumber)).toEqual(['FC-S-000012345']);
    for (const words of ['Company 4242 GmbH', 'pany 4242 G', 'any 424']) {
      const byCompany = await reads.listQueue(queue({ query: words }));
      const matching: { financing_case_id: string }[] = await db('quotes')
        .whereRaw("customer->>'company' ILIKE ?", [`%${words}%`])
        .orderBy(['status_updated_at', 'financing_case_id'])
        .limit(30)
        .select('financing_case_id');
      expect(matching.length).toBeGreaterThan(0);
      expect(byCompany.map((entry) => entry.id)).toEqual(matching.map((row) => row.financing_case_id));
    }
    const deep = await reads.listQueue(queue({ offset: 6_000 }));
    const order: { financing_case_id: string }[] = await db('quotes')
      .orderBy(['status_updated_at', 'financing_case_id'])
      .offset(6_000)
      .limit(30)
      .select('financing_case_id');
    expect(deep.map((entry) => entry.id)).toEqual(order.map((row) => row.financing_case_id));
  });

  test("the clock's due reads and pricing's rental factor check", async () => {
    const clock = new ClockRepository(db);
    const store = new CaseRepository(db, settings);
    indexedOnly(await scansOf(() => clock.dueReminders(new Date(), 3, 1_000)));
    indexedOnly(await scansOf(() => clock.dueExpiries(new Date(), 1_000)));
    // A factor no quote has: the answer that used to read every quote.
    indexedOnly(await scansOf(() => store.hasQuoteWithRentalFactor('acme', '2.999', { calculationType: 'leasing', duration: 36 })));
    expect(await store.hasQuoteWithRentalFactor('acme', '2.999', { calculationType: 'leasing', duration: 36 })).toBe(false);
    expect(await store.hasQuoteWithRentalFactor('acme', '3.180', { calculationType: 'leasing', duration: 36 })).toBe(true);
  });
});
