import { randomBytes } from 'node:crypto';
import { grpcAddressOf } from '@rental/config';
import { TypedClient, createGrpcClient } from '@rental/grpc';
import { loadCaseWorkflowPackage } from '@rental/proto';
import { Stack, WebhookReceiver, bootStack, sampleCustomer, shutdownStack, waitFor } from '@rental/testkit';
import { registerEndpoint } from '../notifications/support';
import { Owner, eventsOf, expectProblem, movesOf, newCase, newPartner, query } from '../case-workflow/support/kit';
import { startReplica } from '../customer/support/customer-kit';
import { OutsideParty, pdfLines, postRaw, signedEvent, signedRaw } from './support/outside-parties';
import { newSigningSecret, seededLender, sendLenderApplicationsTo } from './support/seeded-lenders';

/**
 * The production path against a stack of its own: lender-a's intake and the signing provider are
 * real HTTP servers of this test that verify every signature they get; the lender's and the
 * provider's callbacks go through the gateway like theirs would.
 */
const lenderA = seededLender('lender-a');
const lenderB = seededLender('lender-b');
const SIGNING_SECRET = newSigningSecret();

let stack: Stack;
let lender: OutsideParty;
let signing: OutsideParty;
let owner: Owner;
let hook: WebhookReceiver;

const acceptApplications = () =>
  lender.answerWith((request) => ({ status: 200, body: { reference: `REF-${String(request.body?.data?.applicationId ?? 'x').slice(-8)}` } }));
const acceptEnvelopes = () => signing.answerWith((request) => ({ status: 200, body: { providerEnvelopeId: `PE-${String(request.body?.data?.envelopeId)}` } }));

beforeAll(async () => {
  lender = await OutsideParty.start(lenderA.webhookSecret, () => ({ status: 500 }));
  signing = await OutsideParty.start(SIGNING_SECRET, () => ({ status: 500 }));
  acceptApplications();
  acceptEnvelopes();
  hook = await WebhookReceiver.start();
  stack = await bootStack({
    environment: 'production',
    env: {
      SIGNING_WEBHOOK_SECRET: SIGNING_SECRET,
      SIGNING_PROVIDER_URL: signing.url,
      LENDER_MAX_ATTEMPTS: '3',
      LENDER_SUBMISSION_POLL_MS: '200',
      DOCUMENT_DUE_AFTER: '7d',
    },
  });
  owner = await newPartner(stack);
  await registerEndpoint(owner.api, `${hook.url}/lender-decisions`);
  await sendLenderApplicationsTo(lender, stack);
}, 180_000);

afterAll(async () => {
  if (stack) await shutdownStack(stack);
  await Promise.all([lender?.close(), signing?.close(), hook?.close()]);
});

const lenderEventsUrl = (lenderId = 'lender-a') => `${stack.gatewayUrl}/lender/v1/${lenderId}/events`;

async function decide(
  caseId: string,
  type: string,
  data: Record<string, unknown> = {},
  options: { secret?: string; lenderId?: string; id?: string; at?: Date } = {},
) {
  const event = signedEvent(
    options.secret ?? lenderA.webhookSecret,
    type,
    { financingCaseId: caseId, reference: 'REF-LENDER', ...data },
    { id: options.id, at: options.at },
  );
  return { ...(await postRaw(lenderEventsUrl(options.lenderId), event.raw, event.headers)), webhookId: event.id };
}

async function submission(caseId: string) {
  const [row] = await query<{ lender_submission_status: string | null; financing_number: string | null; last_lender_submission_at: Date | null }>(
    'SELECT lender_submission_status, financing_number, last_lender_submission_at FROM quotes WHERE financing_case_id = $1',
    [caseId],
    stack,
  );
  return row!;
}

/** A case checked out with submitFinancing, its application taken by the test lender. */
async function submittedCase(options: Parameters<typeof newCase>[1] = {}) {
  const created = await newCase(owner, options, stack);
  await waitFor(async () => ((await submission(created.caseId)).lender_submission_status === 'submitted' ? true : undefined), {
    timeoutMs: 20_000,
    what: 'the submission',
  });
  return created;
}

/** Everything a refused callback must leave as it was. */
async function snapshot(caseId: string) {
  const found = await owner.api.get(`/api/financing_cases/${caseId}`);
  const [history] = await query<{ count: string }>('SELECT count(*) FROM case_history WHERE financing_case_id = $1', [caseId], stack);
  const [quote] = await query(
    'SELECT status, rejection_reason, financing_number, signing_statement FROM quotes q JOIN financing_cases c ON c.id = q.financing_case_id WHERE q.financing_case_id = $1',
    [caseId],
    stack,
  );
  return { status: found.json.status, items: found.json.requestedItems, events: (await eventsOf(caseId, stack)).length, history: history!.count, quote };
}

/** The test's shortcut into a review state no production path reaches yet (the back office will). */
async function putQuoteIn(caseId: string, status: string) {
  await query('UPDATE quotes SET status = $1 WHERE financing_case_id = $2', [status, caseId], stack);
}

describe('submission to the lender', () => {
  it('when a case enters finance review, then the lender gets one signed application with the contract body, and its reference becomes the financing number', async () => {
    const { caseId, quoteId } = await submittedCase();
    const [request, ...more] = lender.about(caseId);
    expect(more).toEqual([]);
    expect(request!.verified).toBe(true);
    expect(request!.path).toBe('/lender-a/applications');
    const data = request!.body.data;
    expect(request!.headers['webhook-id']).toBe(data.applicationId);
    const [caseRow] = await query('SELECT case_number FROM financing_cases WHERE id = $1', [caseId], stack);
    const [quoteRow] = await query('SELECT quote_number FROM quotes WHERE id = $1', [quoteId], stack);
    expect(request!.body).toEqual({
      type: 'application.submitted',
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      data: {
        applicationId: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        financingCaseId: caseId,
        caseNumber: caseRow.case_number,
        quoteId,
        quoteNumber: quoteRow.quote_number,
        partner: { id: owner.partner.id, name: expect.stringContaining('Acme Office Solutions GmbH') },
        customer: { ...sampleCustomer, phone: '+4930123', vatId: 'DE123456789' },
        productSector: 'IT_AND_OFFICE_EQUIPMENT',
        calculationType: 'leasing',
        duration: 36,
        paymentInterval: 'monthly',
        financedAmount: 1000,
        monthlyRate: 31.8,
        rentalFactor: '3.180',
        residualValue: null,
        items: [{ position: 1, productNumber: 'LAPTOP-1', productName: 'Laptop', quantity: 1, price: 1000, total: 1000, categorySlug: 'laptops' }],
        creditCheck: {
          provider: 'credit-bureau-simulator',
          reference: expect.stringMatching(/^CB-/),
          outcome: 'pass',
          score: expect.any(Number),
          checkedAt: expect.any(String),
        },
        callbackUrl: `${stack.gatewayUrl}/lender/v1/lender-a/events`,
      },
    });
    const kept = await submission(caseId);
    expect(kept).toEqual({
      lender_submission_status: 'submitted',
      financing_number: `REF-${data.applicationId.slice(-8)}`,
      last_lender_submission_at: expect.any(Date),
    });
    const [stored] = await query('SELECT credit_check FROM lender_submissions WHERE financing_case_id = $1', [caseId], stack);
    expect(stored.credit_check).toEqual(data.creditCheck);
    const quote = await owner.api.get(`/api/quotes/${quoteId}`);
    expect([quote.json.lenderSubmissionStatus, quote.json.financingNumber]).toEqual(['submitted', kept.financing_number]);
  });

  it('when the lender fails twice and then answers, then it was asked three times with the same webhook-id and body, and the case is submitted once', async () => {
    let calls = 0;
    lender.answerWith((request) => {
      if (request.path !== '/lender-a/applications') return { status: 404 };
      calls += 1;
      return calls <= 2 ? { status: 503 } : { status: 201, body: { reference: 'REF-THIRD' } };
    });
    try {
      const { caseId } = await newCase(owner, {}, stack);
      await waitFor(async () => ((await submission(caseId)).lender_submission_status === 'failed' ? true : undefined), {
        timeoutMs: 10_000,
        what: 'the first failed attempt',
      });
      expect((await submission(caseId)).financing_number).toBeNull();
      await waitFor(async () => ((await submission(caseId)).lender_submission_status === 'submitted' ? true : undefined), {
        timeoutMs: 20_000,
        what: 'the third attempt',
      });
      const requests = lender.about(caseId);
      expect(requests).toHaveLength(3);
      expect(requests.every((request) => request.verified)).toBe(true);
      expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
      expect(new Set(requests.map((request) => JSON.stringify(request.body.data))).size).toBe(1);
      expect(requests.map((request) => request.body.type)).toEqual(['application.submitted', 'application.submitted', 'application.submitted']);
      expect((await submission(caseId)).financing_number).toBe('REF-THIRD');
      const history = await query(
        'SELECT actor_type, details FROM case_history WHERE financing_case_id = $1 AND action = $2 ORDER BY id',
        [caseId, 'lender_submission'],
        stack,
      );
      expect(history.map((entry) => [entry.actor_type, entry.details.attempt, entry.details.outcome])).toEqual([
        ['system', 1, 'failed'],
        ['system', 2, 'failed'],
        ['system', 3, 'submitted'],
      ]);
    } finally {
      acceptApplications();
    }
  });

  it('when the lender never answers in time, then the attempts stop at LENDER_MAX_ATTEMPTS and the case stays failed; ResubmitToLender submits it again with a new application id', async () => {
    lender.answerWith(() => ({ status: 200, body: { reference: 'TOO-LATE' }, delayMs: 11_000 }));
    let caseId = '';
    try {
      ({ caseId } = await newCase(owner, {}, stack));
      await waitFor(
        async () => {
          const [row] = await query('SELECT status, attempts, lease_until FROM lender_submissions WHERE financing_case_id = $1', [caseId], stack);
          return row.attempts === 3 && row.status === 'failed' && row.lease_until === null ? row : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 500, what: 'three timed-out attempts' },
      );
    } finally {
      acceptApplications();
    }
    expect(lender.about(caseId)).toHaveLength(3);
    expect((await submission(caseId)).lender_submission_status).toBe('failed');

    const client = new TypedClient(createGrpcClient(loadCaseWorkflowPackage().CaseWorkflowService, grpcAddressOf('case-workflow', stack.portBase, {})), 10_000);
    try {
      await client.call('ResubmitToLender', { financingCaseId: caseId, operatorId: 'op-1', operatorName: 'Olga Operator' }, { partnerId: '' });
      await waitFor(async () => ((await submission(caseId)).lender_submission_status === 'submitted' ? true : undefined), {
        timeoutMs: 15_000,
        what: 'the new submission',
      });
      const applicationIds = lender.about(caseId).map((request) => request.body.data.applicationId);
      expect(applicationIds).toHaveLength(4);
      expect(new Set(applicationIds).size).toBe(2);
      await expect(client.call('ResubmitToLender', { financingCaseId: caseId, operatorId: '', operatorName: '' }, { partnerId: '' })).rejects.toMatchObject({
        kind: 'rule_violation',
        code: 'lender.not_failed',
      });
      const [entry] = await query(
        'SELECT actor_type, actor_id, actor_name FROM case_history WHERE financing_case_id = $1 AND action = $2',
        [caseId, 'lender_resubmission'],
        stack,
      );
      expect(entry).toEqual({ actor_type: 'operator', actor_id: 'op-1', actor_name: 'Olga Operator' });
    } finally {
      client.close();
    }
  }, 90_000);
});

describe('lender decisions', () => {
  it('when the lender accepts a case in finance review, then 204, finance_accept by the lender, an active acceptance, and the partner gets the webhook', async () => {
    const { caseId, quoteId } = await submittedCase();
    const answer = await decide(caseId, 'application.accepted', {
      signingStatement: { signatories: [{ firstName: 'Erika', lastName: 'Mustermann', email: 'erika@customer.example' }], minimumSigners: 1 },
    });
    expect([answer.status, answer.text]).toEqual([204, '']);
    expect((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status).toBe('finance_accepted');
    expect((await movesOf(caseId, stack)).at(-1)).toBe('quote:finance_review>finance_accepted:finance_accept:finance_accepted');
    const [entry] = await query(
      'SELECT actor_type, actor_id, actor_name FROM case_history WHERE financing_case_id = $1 AND action = $2',
      [caseId, 'finance_accept'],
      stack,
    );
    expect(entry).toEqual({ actor_type: 'lender', actor_id: 'lender-a', actor_name: 'Lender A Bank' });
    const quote = (await owner.api.get(`/api/quotes/${quoteId}`)).json;
    expect(quote.activeFinancingResponses.map((response: { decision: string }) => response.decision)).toEqual(['accepted']);
    expect(quote.financingNumber).toBe('REF-LENDER');
    const delivered = await waitFor(
      () =>
        hook.requests.find((request) => {
          const body = JSON.parse(request.rawBody.toString('utf8'));
          return body.data.financingCaseId === caseId && body.data.transition === 'finance_accept' ? body : undefined;
        }),
      { timeoutMs: 15_000, what: 'the partner webhook' },
    );
    expect(delivered).toBeDefined();

    // Rule 4 now follows the lender's statement: a person not on it is refused.
    const refused = await owner.api.post(`/api/financing-cases/${caseId}/start-esignature`, {
      authorizedPersons: [{ firstName: 'Max', lastName: 'Other', email: 'max.other@customer.example', soloSigneePermitted: true }],
    });
    expectProblem(refused, 422);
    expect(refused.json.violations.map((violation: { code: string }) => violation.code)).toEqual(['esignature.not_on_signing_statement']);
  });

  it.each(['manual_finance_review', 'finance_questions'])('when the lender accepts a case in %s, then it moves by finance_accept', async (status) => {
    const { caseId } = await submittedCase();
    await putQuoteIn(caseId, status);
    expect((await decide(caseId, 'application.accepted', { signingStatement: null })).status).toBe(204);
    expect((await movesOf(caseId, stack)).at(-1)).toBe(`quote:${status}>finance_accepted:finance_accept:finance_accepted`);
  });

  it.each(['finance_review', 'manual_finance_review', 'finance_questions'])(
    'when the lender rejects a case in %s, then finance_reject with its reason as rejectionReason',
    async (status) => {
      const { caseId } = await submittedCase();
      await putQuoteIn(caseId, status);
      expect((await decide(caseId, 'application.rejected', { reason: 'Insufficient equity.' })).status).toBe(204);
      const found = (await owner.api.get(`/api/financing_cases/${caseId}`)).json;
      expect([found.status, found.rejectionReason]).toEqual(['finance_rejected', 'Insufficient equity.']);
      expect((await movesOf(caseId, stack)).at(-1)).toBe(`quote:${status}>finance_rejected:finance_reject:finance_rejected`);
      const [entry] = await query(
        'SELECT actor_type, reason FROM case_history WHERE financing_case_id = $1 AND action = $2',
        [caseId, 'finance_reject'],
        stack,
      );
      expect(entry).toEqual({ actor_type: 'lender', reason: 'Insufficient equity.' });
    },
  );

  it('when the lender accepts a case it rejected, then finance_resume (it changed its mind)', async () => {
    const { caseId } = await submittedCase();
    expect((await decide(caseId, 'application.rejected', { reason: null })).status).toBe(204);
    expect((await decide(caseId, 'application.accepted', { signingStatement: null })).status).toBe(204);
    const found = (await owner.api.get(`/api/financing_cases/${caseId}`)).json;
    expect([found.status, found.rejectionReason]).toEqual(['finance_accepted', null]);
    expect((await movesOf(caseId, stack)).slice(-2)).toEqual([
      'quote:finance_review>finance_rejected:finance_reject:finance_rejected',
      'quote:finance_rejected>finance_accepted:finance_resume:finance_accepted',
    ]);
  });

  it.each(['finance_review', 'manual_finance_review'])(
    'when the lender asks questions of a case in %s, then finance_needs_help and the items are requested, due after DOCUMENT_DUE_AFTER; the partner lists only its own',
    async (status) => {
      const { caseId } = await submittedCase();
      await putQuoteIn(caseId, status);
      const before = Date.now();
      const answer = await decide(caseId, 'application.questions', {
        items: [
          { type: 'document', label: 'Annual financial statement 2025', category: 'annual_financial_statement' },
          { type: 'information', question: 'How many employees does the company have?', optional: true, targetAudience: 'customer' },
        ],
      });
      expect(answer.status).toBe(204);
      const found = (await owner.api.get(`/api/financing_cases/${caseId}`)).json;
      expect(found.status).toBe('finance_questions');
      expect((await movesOf(caseId, stack)).at(-1)).toBe(`quote:${status}>finance_questions:finance_needs_help:finance_questions`);
      // The partner sees only what is asked of it; the customer's question is for the customer's page.
      expect(found.requestedItems.map((item: any) => [item.type, item.label, item.category, item.optional])).toEqual([
        ['document', 'Annual financial statement 2025', 'annual_financial_statement', false],
      ]);
      const stored = await query(
        'SELECT item_type, label, category, optional, target_audience, due_at FROM documents.requested_items WHERE financing_case_id = $1 ORDER BY id',
        [caseId],
        stack,
      );
      expect(stored.map((item) => [item.item_type, item.label, item.category, item.optional, item.target_audience])).toEqual([
        ['document', 'Annual financial statement 2025', 'annual_financial_statement', false, 'partner'],
        ['information', 'How many employees does the company have?', 'other', true, 'customer'],
      ]);
      expect(Date.parse(found.requestedItems[0].dueAt)).toBe(stored[0].due_at.getTime());
      for (const item of stored) {
        const due = item.due_at.getTime();
        expect(due).toBeGreaterThanOrEqual(before + 7 * 86_400_000 - 1_000);
        expect(due).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000 + 1_000);
      }
    },
  );

  it('when the lender asks more of a case in finance_questions, then the items are added and the case does not move', async () => {
    const { caseId } = await submittedCase();
    expect(
      (await decide(caseId, 'application.questions', { items: [{ type: 'document', label: 'Statement A', category: 'annual_financial_statement' }] })).status,
    ).toBe(204);
    const events = (await eventsOf(caseId, stack)).length;
    expect(
      (
        await decide(caseId, 'application.questions', {
          items: [{ type: 'document', label: 'Register extract', category: 'business_registration', targetAudience: 'partner' }],
        })
      ).status,
    ).toBe(204);
    const found = (await owner.api.get(`/api/financing_cases/${caseId}`)).json;
    expect(found.status).toBe('finance_questions');
    expect(found.requestedItems.map((item: any) => item.label)).toEqual(['Statement A', 'Register extract']);
    expect((await eventsOf(caseId, stack)).length).toBe(events);
  });

  it('when the same webhook-id comes again, then 204 and nothing changes', async () => {
    const { caseId } = await submittedCase();
    const first = await decide(caseId, 'application.questions', { items: [{ type: 'document', label: 'Statement', category: 'annual_financial_statement' }] });
    expect(first.status).toBe(204);
    const before = await snapshot(caseId);
    const replay = await decide(
      caseId,
      'application.questions',
      { items: [{ type: 'document', label: 'Statement', category: 'annual_financial_statement' }] },
      { id: first.webhookId },
    );
    expect([replay.status, replay.text]).toEqual([204, '']);
    expect(await snapshot(caseId)).toEqual(before);
  });

  it("when a decision does not apply to the case's status, then 409 lender.decision_not_applicable naming the status, and nothing changes", async () => {
    const { caseId } = await submittedCase();
    expect((await decide(caseId, 'application.accepted', { signingStatement: null })).status).toBe(204);
    const before = await snapshot(caseId);
    for (const [type, data] of [
      ['application.rejected', { reason: 'late' }],
      ['application.questions', { items: [{ type: 'document', label: 'Statement', category: 'annual_financial_statement' }] }],
      ['application.accepted', { signingStatement: null }],
    ] as const) {
      const answer = await decide(caseId, type, data);
      expectProblem(answer, 409, 'lender.decision_not_applicable', stack);
      expect(answer.json.detail).toContain('finance_accepted');
    }
    expect(await snapshot(caseId)).toEqual(before);

    const fresh = await newCase(owner, { submitFinancing: false }, stack);
    const draft = await snapshot(fresh.caseId);
    expectProblem(await decide(fresh.caseId, 'application.accepted', { signingStatement: null }), 409, 'lender.decision_not_applicable', stack);
    expect(await snapshot(fresh.caseId)).toEqual(draft);
  });

  it("when the signature is missing, wrong, another lender's or too old, then 401 and nothing changes", async () => {
    const { caseId } = await submittedCase();
    const before = await snapshot(caseId);
    const unsigned = await postRaw(
      lenderEventsUrl(),
      JSON.stringify({
        type: 'application.accepted',
        timestamp: new Date().toISOString(),
        data: { financingCaseId: caseId, reference: 'R', signingStatement: null },
      }),
      { 'Content-Type': 'application/json' },
    );
    expectProblem(unsigned, 401, 'webhook.invalid_signature', stack);
    expectProblem(
      await decide(caseId, 'application.accepted', { signingStatement: null }, { secret: lenderB.webhookSecret }),
      401,
      'webhook.invalid_signature',
      stack,
    );
    expectProblem(
      await decide(caseId, 'application.accepted', { signingStatement: null }, { at: new Date(Date.now() - 6 * 60_000) }),
      401,
      'webhook.invalid_signature',
      stack,
    );
    const event = signedEvent(lenderA.webhookSecret, 'application.accepted', { financingCaseId: caseId, reference: 'R', signingStatement: null });
    const tampered = await postRaw(lenderEventsUrl(), event.raw.replace('"R"', '"S"'), event.headers);
    expectProblem(tampered, 401, 'webhook.invalid_signature', stack);
    expect(await snapshot(caseId)).toEqual(before);
  });

  it("when the lender, the case or the case's lender is unknown, then 404 and nothing changes", async () => {
    const { caseId } = await submittedCase();
    const before = await snapshot(caseId);
    expectProblem(await decide(caseId, 'application.accepted', { signingStatement: null }, { lenderId: 'lender-z' }), 404, 'lender.not_found', stack);
    expectProblem(await decide('01AAAAAAAAAAAAAAAAAAAAAAAA', 'application.accepted', { signingStatement: null }), 404, 'financing_case.not_found', stack);
    expectProblem(
      await decide(caseId, 'application.accepted', { signingStatement: null }, { lenderId: 'lender-b', secret: lenderB.webhookSecret }),
      404,
      'financing_case.not_found',
      stack,
    );
    expect(await snapshot(caseId)).toEqual(before);
  });

  it('when the body does not fit, then 422 naming the field, and nothing changes', async () => {
    const { caseId } = await submittedCase();
    const before = await snapshot(caseId);
    const paths = async (type: string, data: Record<string, unknown>) => {
      const answer = await decide(caseId, type, data);
      expectProblem(answer, 422);
      return answer.json.violations.map((violation: { propertyPath: string }) => violation.propertyPath);
    };
    expect(await paths('application.approved', {})).toEqual(['type']);
    expect(await paths('application.accepted', { reference: undefined, signingStatement: null })).toEqual(['data.reference']);
    expect(await paths('application.accepted', {})).toEqual(['data.signingStatement']);
    expect(await paths('application.rejected', { financingCaseId: undefined, reason: null })).toEqual(['data.financingCaseId']);
    expect(await paths('application.questions', { items: [{ type: 'document', label: 'Contract', category: 'signed_contract' }] })).toEqual([
      'data.items[0].category',
    ]);
    expect(await paths('application.questions', { items: [{ type: 'information' }] })).toEqual(['data.items[0].question']);
    const notJson = signedRaw(lenderA.webhookSecret, 'not json');
    expectProblem(await postRaw(lenderEventsUrl(), notJson.raw, notJson.headers), 422);
    expect(await snapshot(caseId)).toEqual(before);
  });

  it('when a correctly signed rejection carries a NUL in data.reason, then 422 at data.reason and nothing changes', async () => {
    const { caseId } = await submittedCase();
    const before = await snapshot(caseId);
    const answer = await decide(caseId, 'application.rejected', { reason: 'Insufficient\u0000equity.' });
    expectProblem(answer, 422, 'validation_failed', stack);
    expect(answer.json.violations).toEqual([
      {
        propertyPath: 'data.reason',
        code: 'validation.invalid_text',
        message: 'This value contains a NUL character or an unpaired surrogate; text must be valid Unicode without NUL.',
      },
    ]);
    expect(await snapshot(caseId)).toEqual(before);
  });

  it('when a correctly signed body is JSON nested 5,000 levels deep, then 422 and nothing changes, never a stack overflow', async () => {
    const { caseId } = await submittedCase();
    const before = await snapshot(caseId);
    const deep = signedRaw(
      lenderA.webhookSecret,
      `{"type":"application.rejected","timestamp":"${new Date().toISOString()}","data":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    );
    const answer = await postRaw(lenderEventsUrl(), deep.raw, deep.headers);
    expectProblem(answer, 422, 'validation_failed', stack);
    expect(answer.json.violations.map((violation: { propertyPath: string }) => violation.propertyPath)).toEqual(['data']);
    expect(await snapshot(caseId)).toEqual(before);
  });
});

describe('attachments to the lender (SendLenderAttachments)', () => {
  it('when the case has a reference, then the lender gets the signed attachments for it; without one FAILED_PRECONDITION; a failing lender a bad gateway', async () => {
    const client = new TypedClient(createGrpcClient(loadCaseWorkflowPackage().CaseWorkflowService, grpcAddressOf('case-workflow', stack.portBase, {})), 15_000);
    try {
      const draft = await newCase(owner, { submitFinancing: false }, stack);
      await expect(client.call('SendLenderAttachments', { financingCaseId: draft.caseId, items: [] }, { partnerId: '' })).rejects.toMatchObject({
        kind: 'rule_violation',
        code: 'lender.no_reference',
      });

      const { caseId } = await submittedCase();
      const reference = (await submission(caseId)).financing_number as string;
      lender.answerWith((request) => (request.path.endsWith('/attachments') ? { status: 204 } : { status: 200, body: { reference: 'R' } }));
      const pdf = Buffer.from('%PDF-1.4 statement').toString('base64');
      const sent = await client.call(
        'SendLenderAttachments',
        {
          financingCaseId: caseId,
          operatorId: 'op-7',
          operatorName: 'Vera Viewer',
          items: [
            {
              id: 11,
              type: 'document',
              label: 'Annual financial statement',
              category: 'annual_financial_statement',
              answer: '',
              documents: [{ fileName: 'statement.pdf', mimeType: 'application/pdf', contentBase64: pdf }],
            },
            { id: 4, type: 'information', label: 'Employees', category: '', answer: '42', documents: [] },
          ],
        },
        { partnerId: '' },
      );
      expect(sent).toEqual({ reference });
      const [request] = lender.requests.filter((entry) => entry.path.endsWith('/attachments') && entry.body.data.financingCaseId === caseId);
      expect(request!.verified).toBe(true);
      expect(request!.path).toBe(`/lender-a/applications/${encodeURIComponent(reference)}/attachments`);
      const [applied] = await query('SELECT application_id FROM lender_submissions WHERE financing_case_id = $1', [caseId], stack);
      expect(request!.body).toEqual({
        type: 'application.attachments',
        timestamp: expect.any(String),
        data: {
          applicationId: applied.application_id,
          financingCaseId: caseId,
          items: [
            {
              id: 11,
              type: 'document',
              label: 'Annual financial statement',
              category: 'annual_financial_statement',
              documents: [{ fileName: 'statement.pdf', mimeType: 'application/pdf', contentBase64: pdf }],
            },
            { id: 4, type: 'information', label: 'Employees', category: '', answer: '42' },
          ],
        },
      });

      lender.answerWith(() => ({ status: 502 }));
      await expect(client.call('SendLenderAttachments', { financingCaseId: caseId, items: [] }, { partnerId: '' })).rejects.toMatchObject({
        kind: 'bad_gateway',
        code: 'lender.failed',
      });
    } finally {
      acceptApplications();
      client.close();
    }
  });
});

describe('two replicas of case-workflow', () => {
  it('when two replicas work the same queue, then every case is submitted exactly once', async () => {
    const replica = await startReplica(stack, 'case-workflow');
    try {
      // A slow lender keeps each attempt in flight while the other replica polls.
      lender.answerWith((request) => ({ status: 200, body: { reference: `REF-${String(request.body?.data?.applicationId).slice(-8)}` }, delayMs: 1_500 }));
      const cases = await Promise.all(Array.from({ length: 8 }, () => newCase(owner, {}, stack)));
      for (const { caseId } of cases) {
        await waitFor(async () => ((await submission(caseId)).lender_submission_status === 'submitted' ? true : undefined), {
          timeoutMs: 30_000,
          what: `the submission of ${caseId}`,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      for (const { caseId } of cases) expect(lender.about(caseId)).toHaveLength(1);
    } finally {
      acceptApplications();
      await replica.stop();
    }
  });
});

describe('e-signature through the signing provider', () => {
  const signingEventsUrl = () => `${stack.gatewayUrl}/signing/v1/events`;
  const persons = [{ firstName: 'Erika', lastName: 'Mustermann', email: 'erika@customer.example', soloSigneePermitted: true }];

  async function acceptedCase(options: Parameters<typeof newCase>[1] = {}) {
    const created = await submittedCase(options);
    expect((await decide(created.caseId, 'application.accepted', { signingStatement: null })).status).toBe(204);
    return created;
  }

  async function envelopeEvent(type: string, data: Record<string, unknown>, options: { secret?: string; id?: string } = {}) {
    const event = signedEvent(options.secret ?? SIGNING_SECRET, type, data, { id: options.id });
    return { ...(await postRaw(signingEventsUrl(), event.raw, event.headers)), webhookId: event.id };
  }

  async function started(caseId: string) {
    const answer = await owner.api.post(`/api/financing-cases/${caseId}/start-esignature`, { authorizedPersons: persons });
    expect(answer.status).toBe(200);
    return answer.json as { contractId: string; envelopeId: string };
  }

  async function signingState(caseId: string) {
    return {
      snapshot: await snapshot(caseId),
      contracts: await query(
        'SELECT c.id, c.status, e.id AS envelope_id, e.status AS envelope_status FROM contracts c LEFT JOIN signature_envelopes e ON e.contract_id = c.id WHERE c.financing_case_id = $1',
        [caseId],
        stack,
      ),
      documents: (await owner.api.get(`/api/financing-cases/${caseId}/documents`)).json,
    };
  }

  it("when the partner starts the e-signature, then the provider gets the signed envelope with the contract PDF before the partner's 200", async () => {
    const { caseId } = await acceptedCase({
      hasDeliveryAddress: true,
      deliveryAddress: {
        recipientName: 'Lager Nord',
        company: 'Logistik AG',
        street: 'Hafenweg',
        houseNumber: '7',
        zipCode: '20457',
        city: 'Hamburg',
        country: 'DE',
      },
    });
    const answer = await started(caseId);
    const [request, ...more] = signing.about(caseId);
    expect(more).toEqual([]);
    expect([request!.verified, request!.path, request!.headers['webhook-id']]).toEqual([true, '/envelopes', answer.envelopeId]);
    expect(request!.body).toEqual({
      type: 'envelope.requested',
      timestamp: expect.any(String),
      data: {
        envelopeId: answer.envelopeId,
        financingCaseId: caseId,
        contractId: answer.contractId,
        contractNumber: null,
        signers: [{ firstName: 'Erika', lastName: 'Mustermann', email: 'erika@customer.example' }],
        document: { fileName: expect.stringMatching(/^contract-FC-\d{4}-\d{6}\.pdf$/), mimeType: 'application/pdf', contentBase64: expect.any(String) },
        callbackUrl: `${stack.gatewayUrl}/signing/v1/events`,
      },
    });
    const lines = pdfLines(Buffer.from(request!.body.data.document.contentBase64, 'base64'));
    const [caseRow] = await query('SELECT case_number FROM financing_cases WHERE id = $1', [caseId], stack);
    expect(lines).toEqual(
      expect.arrayContaining([
        `Financing case ${caseRow.case_number}`,
        'Calculation type leasing',
        'Duration 36 months',
        'Monthly rate 34.30 EUR',
        'Erika Mustermann <erika@customer.example>',
        '1 x Laptop (LAPTOP-1)  1000.00 EUR each, 1000.00 EUR',
      ]),
    );
    const delivery = lines.slice(lines.indexOf('Delivery to') + 1, lines.indexOf('Items'));
    expect(delivery).toEqual(['Lager Nord', 'Logistik AG', 'Hafenweg 7', '20457 Hamburg', 'DE']);
    const [provider] = await query('SELECT provider_envelope_id FROM provider_envelopes WHERE envelope_id = $1', [answer.envelopeId], stack);
    expect(provider.provider_envelope_id).toBe(`PE-${answer.envelopeId}`);
  });

  it.each([
    ['fails', { status: 503 }, []],
    // Without an answer the provider may hold the envelope: its reservation stays until it is voided (tests/lender/start-esignature.test.ts).
    ['does not answer within 10 s', { status: 200, body: { providerEnvelopeId: 'late' }, delayMs: 11_000 }, [{ state: 'requested' }]],
  ])(
    'when the provider %s, then the partner gets 503 and no contract, envelope or signer is left behind',
    async (_what, failure, reservations) => {
      const { caseId } = await acceptedCase();
      const before = await signingState(caseId);
      signing.answerWith(() => failure);
      try {
        const answer = await owner.api.post(`/api/financing-cases/${caseId}/start-esignature`, { authorizedPersons: persons });
        expectProblem(answer, 503, 'signing.provider_unavailable', stack);
      } finally {
        acceptEnvelopes();
      }
      expect(await signingState(caseId)).toEqual(before);
      expect(
        await query(
          'SELECT count(*)::int AS count FROM authorized_persons p JOIN quotes q ON q.id = p.quote_id WHERE q.financing_case_id = $1',
          [caseId],
          stack,
        ),
      ).toEqual([{ count: 0 }]);
      expect(await query('SELECT state FROM provider_envelopes WHERE financing_case_id = $1', [caseId], stack)).toEqual(reservations);
    },
    30_000,
  );

  it("when the provider reports sent and then signed, then the contract moves to signed and the partner downloads the provider's PDF byte for byte; a replay changes nothing", async () => {
    const { caseId } = await acceptedCase();
    const { contractId, envelopeId } = await started(caseId);
    expect((await envelopeEvent('envelope.sent', { envelopeId, providerEnvelopeId: `PE-${envelopeId}` })).status).toBe(204);
    expect((await owner.api.get(`/api/contracts/${contractId}`)).json.signatureEnvelope.status).toBe('sent');

    const signedPdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2048), Buffer.from('\n%%EOF\n')]);
    const signedEvent_ = await envelopeEvent('envelope.signed', {
      envelopeId,
      providerEnvelopeId: `PE-${envelopeId}`,
      signedDocument: { fileName: 'contract-signed.pdf', contentBase64: signedPdf.toString('base64') },
    });
    expect([signedEvent_.status, signedEvent_.text]).toEqual([204, '']);
    const contract = (await owner.api.get(`/api/contracts/${contractId}`)).json;
    expect([contract.status, contract.signatureEnvelope.status]).toEqual(['signed', 'signed']);
    expect((await movesOf(caseId, stack)).at(-1)).toBe('contract:wait_for_signing>signed:sign:finance_accepted');
    const [entry] = await query('SELECT actor_type FROM case_history WHERE financing_case_id = $1 AND action = $2', [caseId, 'sign'], stack);
    expect(entry).toEqual({ actor_type: 'signing' });
    const documents = (await owner.api.get(`/api/financing-cases/${caseId}/documents`)).json;
    expect(documents.map((document: any) => [document.category, document.originalName, document.mimeType, document.fileSize])).toEqual([
      ['signed_contract', 'contract-signed.pdf', 'application/pdf', signedPdf.length],
    ]);
    const download = await fetch(`${stack.gatewayUrl}${documents[0].downloadUrl}`, { headers: { 'X-Api-Key': owner.partner.key } });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(signedPdf)).toBe(true);

    const before = await signingState(caseId);
    const replay = await envelopeEvent(
      'envelope.signed',
      { envelopeId, signedDocument: { fileName: 'other.pdf', contentBase64: signedPdf.toString('base64') } },
      { id: signedEvent_.webhookId },
    );
    expect([replay.status, replay.text]).toEqual([204, '']);
    expect(await signingState(caseId)).toEqual(before);
  });

  it('when more signed reports arrive at once than case-workflow has database connections, then every one is applied: documents stores the PDF without asking case-workflow back while it holds the case', async () => {
    // One more than the default pool (DB_POOL_MAX 6): had documents asked case-workflow about the case, every held connection would wait for another.
    const envelopes = await Promise.all(
      Array.from({ length: 7 }, async () => {
        const { caseId } = await acceptedCase();
        return started(caseId);
      }),
    );
    const pdf = Buffer.from('%PDF-1.7\nsigned\n%%EOF\n').toString('base64');
    const answers = await Promise.all(
      envelopes.map(({ envelopeId }) => envelopeEvent('envelope.signed', { envelopeId, signedDocument: { fileName: 'signed.pdf', contentBase64: pdf } })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(envelopes.map(() => 204));
    const contracts = await Promise.all(envelopes.map(async ({ contractId }) => (await owner.api.get(`/api/contracts/${contractId}`)).json.status));
    expect(contracts).toEqual(envelopes.map(() => 'signed'));
  }, 90_000);

  it("when the provider reports declined, then the contract waits and the partner may start again; the replaced envelope's events are 409 signing.envelope_replaced", async () => {
    const { caseId } = await acceptedCase();
    const first = await started(caseId);
    expect((await envelopeEvent('envelope.declined', { envelopeId: first.envelopeId, reason: 'Wrong signer' })).status).toBe(204);
    const contract = (await owner.api.get(`/api/contracts/${first.contractId}`)).json;
    expect([contract.status, contract.signatureEnvelope.status]).toEqual(['wait_for_signing', 'declined']);
    const second = await started(caseId);
    expect(second.contractId).toBe(first.contractId);
    expect(second.envelopeId).not.toBe(first.envelopeId);

    const before = await signingState(caseId);
    const stale = await envelopeEvent('envelope.signed', {
      envelopeId: first.envelopeId,
      signedDocument: { fileName: 'x.pdf', contentBase64: Buffer.from('%PDF-1.4 x').toString('base64') },
    });
    expectProblem(stale, 409, 'signing.envelope_replaced', stack);
    expect(await signingState(caseId)).toEqual(before);
  });

  it('when a signing callback is unsigned, wrongly signed, for an unknown envelope or malformed, then 401, 404 or 422 and nothing changes', async () => {
    const { caseId } = await acceptedCase();
    const { envelopeId } = await started(caseId);
    const before = await signingState(caseId);
    const unsigned = await postRaw(
      signingEventsUrl(),
      JSON.stringify({ type: 'envelope.sent', timestamp: new Date().toISOString(), data: { envelopeId, providerEnvelopeId: 'x' } }),
      { 'Content-Type': 'application/json' },
    );
    expectProblem(unsigned, 401, 'webhook.invalid_signature', stack);
    expectProblem(
      await envelopeEvent(
        'envelope.signed',
        { envelopeId, signedDocument: { fileName: 'x.pdf', contentBase64: 'JVBERi0=' } },
        { secret: lenderA.webhookSecret },
      ),
      401,
      'webhook.invalid_signature',
      stack,
    );
    expectProblem(
      await envelopeEvent('envelope.sent', { envelopeId: '01AAAAAAAAAAAAAAAAAAAAAAAA', providerEnvelopeId: 'x' }),
      404,
      'signature_envelope.not_found',
      stack,
    );
    const notPdf = await envelopeEvent('envelope.signed', {
      envelopeId,
      signedDocument: { fileName: 'x.pdf', contentBase64: Buffer.from('plain text').toString('base64') },
    });
    expectProblem(notPdf, 422);
    expect(notPdf.json.violations.map((violation: { propertyPath: string }) => violation.propertyPath)).toEqual(['data.signedDocument.contentBase64']);
    const unknownType = await envelopeEvent('envelope.lost', { envelopeId });
    expectProblem(unknownType, 422);
    expect(unknownType.json.violations.map((violation: { propertyPath: string }) => violation.propertyPath)).toEqual(['type']);
    expect(await signingState(caseId)).toEqual(before);
  });
});
