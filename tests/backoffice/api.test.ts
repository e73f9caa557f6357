import { ApiResponse, WebhookReceiver, waitFor } from '@rental/testkit';
import { query as documentsQuery, sampleFile, upload } from '../documents/support/kit';
import { Ops, Owner, Role, expectProblem, expectViolations, movesOf, newCase, partnerCase, query, sharedStack, simulate } from './support/kit';

const UNKNOWN_CASE = '01AAAAAAAAAAAAAAAAAAAAAAAA';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/**
 * A due date a day ago: overdue, but inside DOCUMENT_OVERDUE_GRACE (7 days), so the clock does not
 * cancel the case while the test reads the queue by status (a due date years ago made the next
 * tick cancel it, and the in_progress filter then missed it).
 */
const overdueWithinGrace = () => new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();

describe('back office API', () => {
  const as: Partial<Record<Role, Ops>> = {};
  const viewer = () => as.viewer as Ops;
  const reviewer = () => as.reviewer as Ops;
  const approver = () => as.approver as Ops;

  beforeAll(async () => {
    for (const role of ['viewer', 'reviewer', 'approver'] as const) as[role] = await Ops.as(role);
  });

  const historyOf = async (caseId: string) =>
    (await viewer().get(`/ops/v1/cases/${caseId}`)).json.history as {
      actor: { type: string; id: string | null; name: string | null };
      action: string;
      fromStatus: string | null;
      toStatus: string | null;
      reason: string | null;
      details: Record<string, unknown> | null;
    }[];
  /**
   * The latest history entry other than the checkout's lender submission: a worker records that one
   * when the lender took the application, which may be after the operator's move under load.
   */
  const latestBesidesSubmission = (history: { action: string }[]) => history.filter((entry) => entry.action !== 'lender_submission').at(-1);
  const partnerItems = async (owner: Owner, caseId: string) =>
    (await owner.api.get(`/api/financing-cases/${caseId}/document-requests`)).json as Record<string, unknown>[];

  /** A partner-audience requested document with the partner's PDF uploaded for it (PENDING_REVIEW). */
  async function uploadedDocument(): Promise<{ owner: Owner; caseId: string; itemId: number; documentId: number; bytes: Buffer }> {
    const { owner, caseId } = await partnerCase();
    const created = await reviewer().post(`/ops/v1/cases/${caseId}/requests`, {
      items: [{ type: 'document', label: 'Annual statement 2025', category: 'annual_financial_statement' }],
    });
    const itemId = created.json[0].id as number;
    const bytes = sampleFile('pdf');
    const uploaded = await upload(owner.api, caseId, {
      file: { bytes, name: 'statement.pdf', type: 'application/pdf' },
      category: 'annual_financial_statement',
      requestedDocumentId: itemId,
    });
    expect(uploaded.status).toBe(201);
    return { owner, caseId, itemId, documentId: uploaded.json.id as number, bytes };
  }

  describe('roles', () => {
    const body = {};
    it.each([
      ['viewer', 'GET', '/ops/v1/cases'],
      ['viewer', 'GET', `/ops/v1/cases/${UNKNOWN_CASE}`],
      ['viewer', 'GET', '/ops/v1/documents/2147483647/download'],
      ['reviewer', 'POST', `/ops/v1/cases/${UNKNOWN_CASE}/transitions`],
      ['reviewer', 'POST', `/ops/v1/cases/${UNKNOWN_CASE}/requests`],
      ['reviewer', 'POST', '/ops/v1/documents/2147483647/review'],
      ['reviewer', 'POST', `/ops/v1/cases/${UNKNOWN_CASE}/transmit`],
      ['reviewer', 'POST', `/ops/v1/cases/${UNKNOWN_CASE}/resubmit`],
      ['reviewer', 'POST', `/ops/v1/cases/${UNKNOWN_CASE}/callback-requests`],
      ['reviewer', 'POST', '/ops/v1/callback-requests/2147483647/close'],
      ['reviewer', 'POST', `/ops/v1/cases/${UNKNOWN_CASE}/notes`],
      ['reviewer', 'POST', `/ops/v1/contracts/${UNKNOWN_CASE}/transitions`],
      ['approver', 'POST', `/ops/v1/cases/${UNKNOWN_CASE}/override`],
      ['approver', 'POST', `/ops/v1/cases/${UNKNOWN_CASE}/cancel`],
    ] as const)('when the least role of %s %s %s is missing, then 403; with it, the request gets past the role check', async (role, method, path) => {
      const below: Record<Role, Role | null> = { viewer: null, reviewer: 'viewer', approver: 'reviewer' };
      const lower = below[role];
      if (lower) {
        const denied = method === 'GET' ? await as[lower]?.get(path) : await as[lower]?.post(path, body);
        expectProblem(denied as ApiResponse, 403, 'ops.role_required');
      }
      const allowed = method === 'GET' ? await as[role]?.get(path) : await as[role]?.post(path, body);
      expect([200, 404, 422]).toContain(allowed?.status);
    });

    it("when a reviewer asks for a finance move, then 403; a move of the table without finance is the reviewer's", async () => {
      const { caseId } = await partnerCase({ submitFinancing: false });

      const financeMove = await reviewer().post(`/ops/v1/cases/${caseId}/transitions`, { transition: 'start_manual_finance_review' });
      const otherMove = await reviewer().post(`/ops/v1/cases/${caseId}/transitions`, { transition: 'finalize' });

      expectProblem(financeMove, 403, 'ops.role_required');
      expect([otherMove.status, otherMove.json.status]).toEqual([200, 'in_review']);
    });
  });

  describe('queue and case page', () => {
    it('when the queue is read, then it lists cases of every partner, longest waiting first, with the partner, counts and submission state', async () => {
      const first = await partnerCase({ submitFinancing: false });
      const second = await partnerCase({ submitFinancing: false });
      await reviewer().post(`/ops/v1/cases/${second.caseId}/requests`, {
        items: [
          { type: 'information', question: 'Founding year?', dueAt: overdueWithinGrace() },
          { type: 'information', question: 'Employees?', optional: true },
        ],
      });

      // Other test files leave cases in progress on the shared stack: read pages until the newer case comes.
      const queue: { id: string }[] = [];
      for (let number = 1; !queue.some((candidate) => candidate.id === second.caseId); number += 1) {
        const page = await viewer().get(`/ops/v1/cases?status=in_progress&page=${number}`);
        expect(page.status).toBe(200);
        if (page.json.length === 0) break;
        queue.push(...page.json);
      }
      const ids = queue.map((entry) => entry.id);
      const entry = queue.find((candidate) => candidate.id === second.caseId);

      expect(ids.indexOf(first.caseId)).toBeGreaterThanOrEqual(0);
      expect(ids.indexOf(first.caseId)).toBeLessThan(ids.indexOf(second.caseId));
      expect(entry).toEqual({
        id: second.caseId,
        caseNumber: expect.stringMatching(/^FC-\d{4}-\d{6}$/),
        quoteNumber: expect.any(String),
        partnerId: second.owner.partner.id,
        partnerName: expect.any(String),
        status: 'in_progress',
        contractStatus: null,
        lenderSubmissionStatus: null,
        financingNumber: null,
        inReviewSince: null,
        statusUpdatedAt: expect.stringMatching(ISO),
        openItems: 2,
        overdueItems: 1,
      });
    });

    it('when the queue is filtered by partner, status list, number search, lender submission status and overdue, then only matching cases come', async () => {
      const { owner, caseId } = await partnerCase({ submitFinancing: false });
      const other = await newCase(owner, { submitFinancing: true });
      await reviewer().post(`/ops/v1/cases/${caseId}/requests`, {
        items: [{ type: 'document', label: 'ID', category: 'business_registration', dueAt: overdueWithinGrace() }],
      });
      const caseNumber = (await viewer().get(`/ops/v1/cases/${caseId}`)).json.caseNumber as string;
      const ids = (response: ApiResponse) => response.json.map((entry: { id: string }) => entry.id).sort();
      const partner = `partnerId=${owner.partner.id}`;

      expect(ids(await viewer().get(`/ops/v1/cases?${partner}`))).toEqual([caseId, other.caseId].sort());
      expect(ids(await viewer().get(`/ops/v1/cases?${partner}&status=in_progress,finance_review`))).toEqual([caseId, other.caseId].sort());
      expect(ids(await viewer().get(`/ops/v1/cases?${partner}&status=finance_review`))).toEqual([other.caseId]);
      expect(ids(await viewer().get(`/ops/v1/cases?q=${caseNumber}`))).toEqual([caseId]);
      expect(ids(await viewer().get(`/ops/v1/cases?${partner}&overdue=true`))).toEqual([caseId]);
      expect(ids(await viewer().get(`/ops/v1/cases?${partner}&lenderSubmissionStatus=failed`))).toEqual([]);
      const badFilter = await viewer().get('/ops/v1/cases?lenderSubmissionStatus=lost');
      expectProblem(badFilter, 400, 'request.invalid_query');
      expect(badFilter.json.violations.map((violation: { propertyPath: string }) => violation.propertyPath)).toEqual(['lenderSubmissionStatus']);
    });

    it('when a case is read, then it has quote, contract, submissions, every item of every audience, documents and the history with actors', async () => {
      const { owner, caseId } = await uploadedDocument();
      await reviewer().post(`/ops/v1/cases/${caseId}/requests`, { items: [{ type: 'information', question: 'Internal check?', targetAudience: 'operator' }] });

      const response = await viewer().get(`/ops/v1/cases/${caseId}`);

      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({
        id: caseId,
        partnerId: owner.partner.id,
        status: 'finance_review',
        contract: null,
        envelope: null,
        quote: { financingCaseId: caseId },
      });
      expect(response.json.lenderSubmissions[0]).toMatchObject({ status: expect.any(String), attempts: expect.any(Number) });
      expect(response.json.requestedItems.map((item: { targetAudience: string }) => item.targetAudience)).toEqual(['partner', 'operator']);
      expect(response.json.documents[0]).toMatchObject({
        uploadedBy: 'partner',
        reviewStatus: 'PENDING_REVIEW',
        downloadUrl: expect.stringMatching(/^\/ops\/v1\/documents\/\d+\/download$/),
      });
      expect(response.json.history.slice(0, 3)).toEqual([
        expect.objectContaining({
          actor: { type: 'partner', id: owner.partner.id, name: owner.partner.name },
          action: 'create',
          fromStatus: 'new',
          toStatus: 'in_progress',
        }),
        expect.objectContaining({
          actor: { type: 'partner', id: owner.partner.id, name: owner.partner.name },
          action: 'accept_by_customer',
          toStatus: 'accepted_by_customer',
        }),
        expect.objectContaining({
          actor: { type: 'partner', id: owner.partner.id, name: owner.partner.name },
          action: 'request_finance_review',
          toStatus: 'finance_review',
        }),
      ]);
      expect(latestBesidesSubmission(response.json.history)).toMatchObject({
        actor: { type: 'operator', id: 'op-rene', name: 'Rene Reviewer' },
        action: 'request_items',
      });
    });

    it('when an unknown case is read, then 404 problem+json', async () => {
      expectProblem(await viewer().get(`/ops/v1/cases/${UNKNOWN_CASE}`), 404, 'financing_case.not_found');
    });
  });

  describe('quote moves', () => {
    it('when an approver accepts a case in finance review, then it is finance_accepted with an event and the operator and reason in the history', async () => {
      const { caseId } = await partnerCase();

      const response = await approver().post(`/ops/v1/cases/${caseId}/transitions`, { transition: 'finance_accept', reason: 'Lender agreed by phone' });

      expect([response.status, response.json.status]).toEqual([200, 'finance_accepted']);
      expect((await movesOf(caseId)).at(-1)).toBe('quote:finance_review>finance_accepted:finance_accept:finance_accepted');
      expect(latestBesidesSubmission(response.json.history)).toMatchObject({
        actor: { type: 'operator', id: 'op-anna', name: 'Anna Approver' },
        action: 'finance_accept',
        fromStatus: 'finance_review',
        toStatus: 'finance_accepted',
        reason: 'Lender agreed by phone',
      });
    });

    it('when a move cannot be made from the current status, then 422 naming status and move, and nothing changes', async () => {
      const { caseId } = await partnerCase();

      const response = await reviewer().post(`/ops/v1/cases/${caseId}/transitions`, { transition: 'finalize' });

      expectProblem(response, 422, 'quote.transition_not_allowed');
      expect(response.json.detail).toBe('The quote is finance_review; the move finalize is not allowed from there.');
      expect((await viewer().get(`/ops/v1/cases/${caseId}`)).json.status).toBe('finance_review');
    });

    it('when cancel or an unknown move is sent as a transition, or the body lacks it, then 422 naming transition', async () => {
      const { caseId } = await partnerCase();

      expectViolations(await approver().post(`/ops/v1/cases/${caseId}/transitions`, { transition: 'cancel' }), [['transition', 'ops.cancel_route_required']]);
      expectViolations(await approver().post(`/ops/v1/cases/${caseId}/transitions`, { transition: 'teleport' }), [['transition', 'ops.unknown_transition']]);
      expectViolations(await approver().post(`/ops/v1/cases/${caseId}/transitions`, {}), [['transition', expect.any(String)]] as never);
    });

    it('when finance_accept is sent for a finance_rejected case, then 422 ops.override_required; the override with a reason accepts it', async () => {
      const { owner, caseId } = await partnerCase();
      await simulate(owner, caseId, 'finance_rejected', { rejectionReason: 'Too young a company' });

      const generic = await approver().post(`/ops/v1/cases/${caseId}/transitions`, { transition: 'finance_accept' });
      const withoutReason = await approver().post(`/ops/v1/cases/${caseId}/override`, {});
      const overridden = await approver().post(`/ops/v1/cases/${caseId}/override`, { reason: 'Guarantor provided' });

      expectViolations(generic, [['transition', 'ops.override_required']]);
      expectViolations(withoutReason, [['reason', expect.any(String)]] as never);
      expect([overridden.status, overridden.json.status, overridden.json.rejectionReason]).toEqual([200, 'finance_accepted', null]);
      expect((await movesOf(caseId)).at(-1)).toBe('quote:finance_rejected>finance_accepted:finance_accept:finance_accepted');
      expect(latestBesidesSubmission(overridden.json.history)).toMatchObject({
        actor: { type: 'operator', id: 'op-anna' },
        action: 'finance_accept',
        reason: 'Guarantor provided',
      });
      expect((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status).toBe('finance_accepted');
    });

    it('when the override is asked for a case that is not finance_rejected, then 422', async () => {
      const { caseId } = await partnerCase();

      expectProblem(await approver().post(`/ops/v1/cases/${caseId}/override`, { reason: 'why not' }), 422, 'ops.override_not_applicable');
    });

    it('when an operator requests finance review, then the case is queued for the lender', async () => {
      const { caseId } = await partnerCase({ submitFinancing: false });

      const response = await reviewer().post(`/ops/v1/cases/${caseId}/transitions`, { transition: 'request_finance_review_direct' });

      expect([response.status, response.json.status, response.json.lenderSubmissions.length]).toEqual([200, 'finance_review', 1]);
    });
  });

  describe('partner webhooks', () => {
    it("when the approval team overrides and completes a case, then the partner's endpoint gets each status change as for a sandbox decision", async () => {
      const hook = await WebhookReceiver.start();
      try {
        const { owner, caseId } = await partnerCase();
        await owner.api.post('/api/webhook_endpoints', { url: `${hook.url}/rental`, active: true });
        await simulate(owner, caseId, 'finance_rejected');
        await approver().post(`/ops/v1/cases/${caseId}/override`, { reason: 'Guarantor provided' });
        await simulate(owner, caseId, 'signed');
        const contractId = (await viewer().get(`/ops/v1/cases/${caseId}`)).json.contract.id as string;
        await owner.api.patch(`/api/contracts/${contractId}/edit-contract-number`, { contractNumber: `CN-HOOK-${Date.now()}` });
        await reviewer().post(`/ops/v1/contracts/${contractId}/transitions`, { to: 'completed' });

        // Webhooks may arrive out of order (spec: the latest occurredAt carries the state): wait for every one.
        const expected = ['quote:finance_reject', 'quote:finance_accept', 'contract:check_invoice', 'contract:complete', 'quote:complete'];
        const transitions = await waitFor(
          () => {
            const seen = hook
              .bodies()
              .filter((body) => body.data.financingCaseId === caseId)
              .map((body) => `${body.data.resourceType}:${body.data.transition}`);
            return expected.every((transition) => seen.includes(transition)) ? seen : undefined;
          },
          { what: 'every status change webhook', timeoutMs: 20_000 },
        );

        expect(transitions).toEqual(expect.arrayContaining(expected));
      } finally {
        await hook.close();
      }
    });
  });

  describe('cancel', () => {
    it('when an approver cancels, then quote and waiting contract are canceled with events, open callback requests close, and canceling again is 422', async () => {
      const { owner, caseId } = await partnerCase();
      await approver().post(`/ops/v1/cases/${caseId}/transitions`, { transition: 'finance_accept' });
      await simulate(owner, caseId, 'wait_for_signing');
      const item = (await reviewer().post(`/ops/v1/cases/${caseId}/requests`, { items: [{ type: 'information', question: 'When can we call?' }] })).json[0];
      await reviewer().post(`/ops/v1/cases/${caseId}/callback-requests`, { items: [{ type: 'information', id: item.id }], note: 'Call the CFO' });

      const canceled = await approver().post(`/ops/v1/cases/${caseId}/cancel`, { reason: 'Customer withdrew' });
      const again = await approver().post(`/ops/v1/cases/${caseId}/cancel`, { reason: 'Twice' });

      expect([canceled.status, canceled.json.status, canceled.json.contract.status]).toEqual([200, 'canceled', 'canceled']);
      expect((await movesOf(caseId)).slice(-2)).toEqual([
        'quote:finance_accepted>canceled:cancel:canceled',
        'contract:wait_for_signing>canceled:cancel:canceled',
      ]);
      expectProblem(again, 422, 'financing_case.not_cancelable');
      // documents closes them when the quote's cancel event reaches it.
      await waitFor(async () => ((await partnerItems(owner, caseId))[0]?.callbackStatus === 'closed' ? true : undefined), {
        what: 'the callback request to close',
      });
    });

    it('when a case with a signed contract is canceled by the approval team, then the contract stays active', async () => {
      const { owner, caseId } = await partnerCase();
      // Contracts exist only for accepted quotes (the sandbox's contract scenarios refuse otherwise).
      expect((await simulate(owner, caseId, 'finance_accepted')).status).toBe(204);
      expect((await simulate(owner, caseId, 'signed')).status).toBe(204);

      const canceled = await approver().post(`/ops/v1/cases/${caseId}/cancel`, { reason: 'Fraud suspicion' });

      expect([canceled.status, canceled.json.status, canceled.json.contract.status]).toEqual([200, 'canceled', 'signed']);
    });
  });

  describe('requests', () => {
    it('when items for partner, customer and operator are requested, then the partner lists only its own, with dueAt; the case shows all', async () => {
      const { owner, caseId } = await partnerCase();

      const created = await reviewer().post(`/ops/v1/cases/${caseId}/requests`, {
        items: [
          { type: 'document', label: 'Annual statement', category: 'annual_financial_statement', dueAt: '2031-05-01T10:00:00.000Z' },
          { type: 'information', question: 'Company phone?', targetAudience: 'customer' },
          {
            type: 'fill_and_return',
            label: 'Guarantee',
            category: 'default_guarantee',
            template: { fileName: 'guarantee.pdf', mimeType: 'application/pdf', contentBase64: sampleFile('pdf').toString('base64') },
          },
          { type: 'information', question: 'Check the register', targetAudience: 'operator' },
        ],
      });

      expect(created.status).toBe(201);
      expect(created.json.map((item: { type: string; targetAudience: string }) => `${item.type}/${item.targetAudience}`)).toEqual([
        'document/partner',
        'information/customer',
        'fill_and_return/partner',
        'information/operator',
      ]);
      const listed = await partnerItems(owner, caseId);
      expect(listed.map((item) => [item.type, item.dueAt])).toEqual([
        ['document', '2031-05-01T10:00:00.000Z'],
        ['fill_and_return', expect.stringMatching(ISO)],
      ]);
      expect(listed[1]).toMatchObject({ templateFileName: 'guarantee.pdf', callbackStatus: 'none' });
      const defaultDue = Date.parse(listed[1]?.dueAt as string) - Date.now();
      expect(defaultDue).toBeGreaterThan(13 * 86_400_000);
      expect(defaultDue).toBeLessThanOrEqual(14 * 86_400_000);
    });

    it('when one item of several is bad, then 422 names it and no item is created', async () => {
      const { caseId } = await partnerCase();

      const response = await reviewer().post(`/ops/v1/cases/${caseId}/requests`, {
        items: [
          { type: 'information', question: 'Fine question' },
          { type: 'document', label: 'Statement', category: 'birth_date' },
        ],
      });

      expectViolations(response, [['items[1].category', 'validation.choice']]);
      expect((await viewer().get(`/ops/v1/cases/${caseId}`)).json.requestedItems).toEqual([]);
    });

    it('when the body does not fit, then 422 names the field; an unknown case is 404', async () => {
      const { caseId } = await partnerCase();

      expectViolations(await reviewer().post(`/ops/v1/cases/${caseId}/requests`, { items: [{ type: 'letter' }] }), [
        ['items[0].type', expect.any(String)],
      ] as never);
      expectViolations(await reviewer().post(`/ops/v1/cases/${caseId}/requests`, { items: [] }), [['items', expect.any(String)]] as never);
      expectProblem(await reviewer().post(`/ops/v1/cases/${UNKNOWN_CASE}/requests`, { items: [{ type: 'information', question: 'x' }] }), 404);
    });
  });

  describe('document review', () => {
    it("when a reviewer rejects a document with a reason, then the partner's list shows the request open again and the history has the review", async () => {
      const { owner, caseId, itemId, documentId } = await uploadedDocument();

      const response = await reviewer().post(`/ops/v1/documents/${documentId}/review`, { status: 'REJECTED', reason: 'Unreadable scan' });

      expect([response.status, response.json.id]).toEqual([200, caseId]);
      expect(response.json.documents[0]).toMatchObject({ id: documentId, reviewStatus: 'REJECTED', rejectionReason: 'Unreadable scan' });
      expect((await partnerItems(owner, caseId)).find((item) => item.id === itemId)).toMatchObject({ status: 'pending', editable: true, fulfilled: false });
      expect((await owner.api.get(`/api/documents/${documentId}`)).json).toMatchObject({ reviewStatus: 'REJECTED', rejectionReason: 'Unreadable scan' });
      expect(latestBesidesSubmission(response.json.history)).toMatchObject({
        actor: { type: 'operator', id: 'op-rene' },
        action: 'document_review',
        reason: 'Unreadable scan',
        details: { documentId, status: 'REJECTED', itemId },
      });
    });

    it('when a reviewer verifies a document, then its request is accepted; reviewing it again is 422', async () => {
      const { owner, caseId, itemId, documentId } = await uploadedDocument();

      const verified = await reviewer().post(`/ops/v1/documents/${documentId}/review`, { status: 'VERIFIED' });
      const again = await reviewer().post(`/ops/v1/documents/${documentId}/review`, { status: 'REJECTED', reason: 'changed my mind' });

      expect(verified.status).toBe(200);
      expect((await partnerItems(owner, caseId)).find((item) => item.id === itemId)).toMatchObject({ status: 'accepted' });
      expectViolations(again, [['status', 'document.not_reviewable']]);
    });

    it('when the review body is bad or the document unknown, then 422 naming status, or 404', async () => {
      const { documentId } = await uploadedDocument();

      expectViolations(await reviewer().post(`/ops/v1/documents/${documentId}/review`, { status: 'MAYBE' }), [['status', expect.any(String)]] as never);
      expectProblem(await reviewer().post('/ops/v1/documents/2147483647/review', { status: 'VERIFIED' }), 404, 'document.not_found');
    });

    it('when a viewer downloads a document of any partner, then the bytes are as stored', async () => {
      const { documentId, bytes } = await uploadedDocument();

      const response = await fetch(`${sharedStack().gatewayUrl}/ops/v1/documents/${documentId}/download`, {
        headers: { Authorization: `Bearer ${viewer().token}` },
      });

      expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/pdf']);
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    });
  });

  describe('callback requests and notes', () => {
    it('when a callback request links items, then the partner sees its id and open status; closing it shows closed', async () => {
      const { owner, caseId } = await partnerCase();
      const item = (
        await reviewer().post(`/ops/v1/cases/${caseId}/requests`, {
          items: [{ type: 'document', label: 'Register extract', category: 'business_registration' }],
        })
      ).json[0];

      const created = await reviewer().post(`/ops/v1/cases/${caseId}/callback-requests`, {
        items: [{ type: 'document', id: item.id }],
        note: 'Please call about the extract',
      });
      const listedOpen = (await partnerItems(owner, caseId))[0];
      const closed = await reviewer().post(`/ops/v1/callback-requests/${created.json.id}/close`);
      const closedAgain = await reviewer().post(`/ops/v1/callback-requests/${created.json.id}/close`);

      expect([created.status, created.json]).toEqual([
        201,
        {
          id: expect.any(Number),
          financingCaseId: caseId,
          status: 'open',
          note: 'Please call about the extract',
          createdAt: expect.stringMatching(ISO),
          closedAt: null,
          items: [{ type: 'document', id: item.id }],
        },
      ]);
      expect(listedOpen).toMatchObject({ callbackRequestId: created.json.id, callbackStatus: 'open' });
      expect(closed.status).toBe(200);
      expect((await partnerItems(owner, caseId))[0]).toMatchObject({ callbackRequestId: created.json.id, callbackStatus: 'closed' });
      expectProblem(closedAgain, 422, 'callback_request.closed');
      expect(closed.json.history.slice(-2).map((entry: { action: string }) => entry.action)).toEqual(['callback_request', 'callback_request_closed']);
    });

    it('when a callback request names an item of another case, then 422 names it and nothing is linked', async () => {
      const { caseId } = await partnerCase();
      const other = await partnerCase();
      const foreign = (await reviewer().post(`/ops/v1/cases/${other.caseId}/requests`, { items: [{ type: 'information', question: 'x?' }] })).json[0];

      const response = await reviewer().post(`/ops/v1/cases/${caseId}/callback-requests`, { items: [{ type: 'information', id: foreign.id }] });

      expectViolations(response, [['items[0].id', 'document_request.not_found']]);
    });

    it('when a reviewer adds a note, then 201 and the history keeps it with its author; a blank note is 422', async () => {
      const { caseId } = await partnerCase();
      // The checkout's lender submission is recorded by a worker: wait for it, so the note is the latest entry.
      await waitFor(async () => ((await historyOf(caseId)).some((entry) => entry.action === 'lender_submission') ? true : undefined), {
        timeoutMs: 15_000,
        what: 'the lender submission in the history',
      });

      const note = await reviewer().post(`/ops/v1/cases/${caseId}/notes`, { text: 'Customer called, documents follow Monday' });

      expect([note.status, note.json]).toEqual([
        201,
        {
          financingCaseId: caseId,
          text: 'Customer called, documents follow Monday',
          createdAt: expect.stringMatching(ISO),
          author: { type: 'operator', id: 'op-rene', name: 'Rene Reviewer' },
        },
      ]);
      expect((await historyOf(caseId)).at(-1)).toMatchObject({
        action: 'note',
        actor: { type: 'operator', id: 'op-rene' },
        details: { text: 'Customer called, documents follow Monday' },
      });
      expectViolations(await reviewer().post(`/ops/v1/cases/${caseId}/notes`, { text: '  ' }), [['text', expect.any(String)]] as never);
      expectProblem(await reviewer().post(`/ops/v1/cases/${UNKNOWN_CASE}/notes`, { text: 'lost' }), 404);
    });
  });

  describe('contract places', () => {
    async function signedCase() {
      const { owner, caseId } = await partnerCase();
      await approver().post(`/ops/v1/cases/${caseId}/transitions`, { transition: 'finance_accept' });
      await simulate(owner, caseId, 'signed');
      const contractId = (await viewer().get(`/ops/v1/cases/${caseId}`)).json.contract.id as string;
      return { owner, caseId, contractId };
    }

    it('when a contract moves forward skipping steps, then each step is an event; back is 422', async () => {
      const { caseId, contractId } = await signedCase();

      const forward = await reviewer().post(`/ops/v1/contracts/${contractId}/transitions`, { to: 'delivery_approved' });
      const back = await reviewer().post(`/ops/v1/contracts/${contractId}/transitions`, { to: 'signed' });
      const same = await reviewer().post(`/ops/v1/contracts/${contractId}/transitions`, { to: 'delivery_approved' });

      expect([forward.status, forward.json.contract.status]).toEqual([200, 'delivery_approved']);
      expect((await movesOf(caseId)).slice(-2)).toEqual([
        'contract:signed>post_processing_required:require_post_processing:finance_accepted',
        'contract:post_processing_required>delivery_approved:approve_delivery:finance_accepted',
      ]);
      expectViolations(back, [['to', 'contract.transition_not_allowed']]);
      expectViolations(same, [['to', 'contract.transition_not_allowed']]);
      expectViolations(await reviewer().post(`/ops/v1/contracts/${contractId}/transitions`, { to: 'wait_for_signing' }), [['to', expect.any(String)]] as never);
    });

    it('when a contract without a number is completed, then 422; with its number it completes and completes the quote', async () => {
      const { owner, caseId, contractId } = await signedCase();

      const withoutNumber = await reviewer().post(`/ops/v1/contracts/${contractId}/transitions`, { to: 'completed' });
      await owner.api.patch(`/api/contracts/${contractId}/edit-contract-number`, { contractNumber: `CN-${Date.now()}` });
      const completed = await reviewer().post(`/ops/v1/contracts/${contractId}/transitions`, { to: 'completed' });

      expectViolations(withoutNumber, [['to', 'contract.number_missing']]);
      expect([completed.status, completed.json.contract.status, completed.json.status]).toEqual([200, 'completed', 'completed']);
      expect((await movesOf(caseId)).at(-1)).toBe('quote:finance_accepted>completed:complete:completed');
      expect((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status).toBe('completed');
    });

    it('when the contract is unknown, then 404', async () => {
      expectProblem(await reviewer().post(`/ops/v1/contracts/${UNKNOWN_CASE}/transitions`, { to: 'signed' }), 404, 'contract.not_found');
    });
  });

  // What the lender gets and answers needs a production stack with a test lender: lender-transmission.test.ts.
  describe('lender transmission', () => {
    it('when an item has nothing verified to send, then transmit is 422 naming it', async () => {
      const { caseId, itemId } = await uploadedDocument();
      await query('UPDATE quotes SET financing_number = $1 WHERE financing_case_id = $2', ['LENDER-REF-2', caseId]);

      expectViolations(await reviewer().post(`/ops/v1/cases/${caseId}/transmit`, { items: [{ type: 'document', id: itemId }] }), [
        ['items[0]', 'document_request.not_transmittable'],
      ]);
    });
  });

  it('when the API description is read, then it is OpenAPI 3.1 with bearer security and every operation', async () => {
    const response = await fetch(`${sharedStack().gatewayUrl}/ops/v1/docs.json`);
    const description = (await response.json()) as {
      openapi: string;
      components: { securitySchemes: Record<string, unknown> };
      paths: Record<string, Record<string, { operationId: string }>>;
    };

    expect(response.status).toBe(200);
    expect(description.openapi).toBe('3.1.0');
    expect(description.components.securitySchemes).toEqual({ operatorToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    expect(Object.values(description.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId))).toHaveLength(23);
  });

  it('when a document row is read directly, then an operator-requested template is stored as given', async () => {
    const { caseId } = await partnerCase();
    const bytes = sampleFile('pdf', 2000);
    await reviewer().post(`/ops/v1/cases/${caseId}/requests`, {
      items: [
        {
          type: 'fill_and_return',
          label: 'Form',
          category: 'self_disclosure_template',
          template: { fileName: 'form.pdf', mimeType: 'application/pdf', contentBase64: bytes.toString('base64') },
        },
      ],
    });

    const [row] = await documentsQuery<{ template_file_size: number }>(
      sharedStack(),
      'SELECT template_file_size FROM requested_items WHERE financing_case_id = $1',
      [caseId],
    );

    expect(row?.template_file_size).toBe(2000);
  });
});
