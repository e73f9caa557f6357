import { fixturePartnerKey, sampleCustomerAddress } from '@rental/testkit';
import { caseCustomer, createCaseViaGrpc } from '../support/cases';
import { rows } from '../support/database';
import { requestItems } from '../customer/support/customer-kit';
import { ISO, Owner, apiAs, expectApplied, expectProblem, newCase, newPartner, query, sharedStack, simulate } from './support/kit';

let owner: Owner;
let stranger: Owner;

beforeAll(async () => {
  owner = await newPartner();
  stranger = await newPartner();
});

describe('GET /api/financing_cases/{id}', () => {
  it('when the partner reads its case, then every field of the financing case is there', async () => {
    const { caseId, quoteId } = await newCase(owner);
    const response = await owner.api.get(`/api/financing_cases/${caseId}`);
    expect(response.status).toBe(200);
    expect(response.contentType).toBe('application/json; charset=utf-8');
    expect(response.json).toEqual({
      '@id': `/api/financing_cases/${caseId}`,
      '@type': 'FinancingCase',
      id: caseId,
      caseNumber: expect.stringMatching(/^FC-\d{4}-\d{6}$/),
      type: 'financing',
      status: 'finance_review',
      rejectionReason: null,
      financingRequest: true,
      partner: `/api/partners/${owner.partner.id}`,
      quotes: [`/api/quotes/${quoteId}`],
      requestedDocuments: [],
      requestedFillAndReturns: [],
      requestedInformation: [],
      requestedItems: [],
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
  });

  it('when the case has requested items, then each kind is in its list and all are in requestedItems, oldest first', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'requested_document', { label: 'Trade register', category: 'business_registration' }));
    await expectApplied(
      simulate(owner, caseId, 'requested_fill_and_return', { label: 'Self disclosure', category: 'self_disclosure_template', optional: true }),
    );
    await expectApplied(simulate(owner, caseId, 'information_requested', { question: 'How many employees?' }));
    const body = (await owner.api.get(`/api/financing_cases/${caseId}`)).json;
    const item = (type: string, label: string, category: string, optional: boolean) => ({
      id: expect.any(Number),
      type,
      label,
      status: 'pending',
      category,
      callbackStatus: 'none',
      requestedAt: expect.stringMatching(ISO),
      dueAt: null,
      optional,
      templateDownloadUrl:
        type === 'fill_and_return'
          ? expect.stringMatching(new RegExp(`^/api/financing-cases/${caseId}/document-requests/fill-and-return-templates/\\d+/download$`))
          : null,
    });
    expect(body.requestedDocuments).toEqual([item('document', 'Trade register', 'business_registration', false)]);
    expect(body.requestedFillAndReturns).toEqual([item('fill_and_return', 'Self disclosure', 'self_disclosure_template', true)]);
    expect(body.requestedInformation).toEqual([item('information', 'How many employees?', 'other', false)]);
    expect(body.requestedItems).toEqual([...body.requestedDocuments, ...body.requestedFillAndReturns, ...body.requestedInformation]);
  });

  it("when another partner's case, an unknown id or an id that cannot exist is read, then 404", async () => {
    const { caseId } = await newCase(owner);
    for (const [api, id] of [
      [stranger.api, caseId],
      [owner.api, '01JABCDEFGHJKMNPQRSTVWXYZ0'],
      [owner.api, 'not-a-ulid'],
    ] as const) {
      const response = await api.get(`/api/financing_cases/${id}`);
      expectProblem(response, 404);
    }
    expect((await stranger.api.get(`/api/financing_cases/${caseId}`)).json.detail).toBe(`No financing case ${caseId}.`);
  });
});

describe('GET /api/financing_cases', () => {
  it("when the partner lists its cases, then they come newest first, 30 a page, without other partners' cases", async () => {
    const lister = await newPartner();
    const ids: string[] = [];
    for (let index = 0; index < 31; index += 1) ids.push((await newCase(lister, { submitFinancing: index % 2 === 0 })).caseId);
    await newCase(stranger);
    const first = await lister.api.get('/api/financing_cases');
    const second = await lister.api.get('/api/financing_cases?page=2');
    const third = await lister.api.get('/api/financing_cases?page=3');
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect(first.json.map((item: { id: string }) => item.id)).toEqual(ids.slice(1).reverse());
    expect(second.json.map((item: { id: string }) => item.id)).toEqual([ids[0]]);
    expect(third.json).toEqual([]);
    expect(first.json[0]).toEqual((await lister.api.get(`/api/financing_cases/${ids[30]}`)).json);
  });

  it('when page is below 1 or not an integer, then 400 naming page', async () => {
    for (const page of ['0', 'x', '1.5']) {
      const response = await owner.api.get(`/api/financing_cases?page=${page}`);
      expectProblem(response, 400);
      expect(response.json.detail).toContain('page');
    }
  });
});

/** Rows of the documents schema. */
const documentsQuery = <T>(sql: string, values: unknown[]) => rows<T>(sharedStack().databaseUrl, sql, values, 'documents');

describe('GET /api/financing_cases, the page built as JSON by Postgres', () => {
  it('when the cases have requested items of every kind, then each case on the page is the case read by id, key order included', async () => {
    const lister = await newPartner();
    const plain = await newCase(lister);
    const busy = await newCase(lister);
    const dated = await newCase(lister);
    await expectApplied(simulate(lister, busy.caseId, 'requested_document', { label: 'Trade register', category: 'business_registration' }));
    await expectApplied(
      simulate(lister, busy.caseId, 'requested_fill_and_return', { label: 'Self disclosure', category: 'self_disclosure_template', optional: true }),
    );
    await expectApplied(simulate(lister, busy.caseId, 'information_requested', { question: 'How many employees?' }));
    const [statement] = await requestItems(sharedStack(), lister.partner.id, dated.caseId, 'document', [
      { label: 'Annual statement', category: 'annual_financial_statement', targetAudience: 'partner', dueAt: '2027-03-01T10:00:00.000Z' },
      { label: 'Offer', category: 'purchase_offer', targetAudience: 'customer' },
    ]);
    await requestItems(sharedStack(), lister.partner.id, dated.caseId, 'information', [
      { label: 'Founding year', category: 'other', question: 'Since when does the company exist?', optional: true, targetAudience: 'partner' },
    ]);
    const [callback] = await documentsQuery<{ id: number }>('INSERT INTO callback_requests (financing_case_id, partner_id) VALUES ($1, $2) RETURNING id', [
      busy.caseId,
      lister.partner.id,
    ]);
    await documentsQuery("UPDATE requested_items SET callback_request_id = $1 WHERE financing_case_id = $2 AND item_type = 'document'", [
      callback!.id,
      busy.caseId,
    ]);
    // Microseconds, which both builders drop: Postgres' to_char and the Date node-postgres reads.
    await documentsQuery("UPDATE requested_items SET due_at = '2027-03-01T10:00:00.123987Z' WHERE id = $1", [statement!.id]);
    await query("UPDATE financing_cases SET updated_at = '2026-11-02T08:09:10.999999Z' WHERE id = $1", [dated.caseId]);

    const page = await lister.api.get('/api/financing_cases');

    expect(page.status).toBe(200);
    expect(page.contentType).toBe('application/json; charset=utf-8');
    expect(page.json.map((listed: { id: string }) => listed.id)).toEqual([dated.caseId, busy.caseId, plain.caseId]);
    for (const listed of page.json) {
      const read = (await lister.api.get(`/api/financing_cases/${listed.id}`)).json;
      expect(listed).toEqual(read);
      expect(JSON.stringify(listed)).toBe(JSON.stringify(read));
    }
    // What the comparison covered: every type, with and without a callback request, template and due date.
    const [datedCase, busyCase, plainCase] = page.json;
    expect(plainCase.requestedItems).toEqual([]);
    expect(busyCase.requestedItems.map((item: { type: string }) => item.type)).toEqual(['document', 'fill_and_return', 'information']);
    expect(busyCase.requestedDocuments[0]).toMatchObject({ callbackRequestId: callback!.id, callbackStatus: 'open' });
    expect(busyCase.requestedFillAndReturns[0]).not.toHaveProperty('callbackRequestId');
    expect(busyCase.requestedFillAndReturns[0].templateDownloadUrl).toMatch(/\/fill-and-return-templates\/\d+\/download$/);
    expect(datedCase.updatedAt).toBe('2026-11-02T08:09:10.999Z');
    expect(datedCase.requestedDocuments).toEqual([
      {
        id: statement!.id,
        type: 'document',
        label: 'Annual statement',
        status: 'pending',
        category: 'annual_financial_statement',
        templateDownloadUrl: null,
        callbackStatus: 'none',
        requestedAt: expect.stringMatching(ISO),
        dueAt: '2027-03-01T10:00:00.123Z',
        optional: false,
      },
    ]);
    expect(datedCase.requestedInformation.map((item: { label: string; optional: boolean }) => [item.label, item.optional])).toEqual([['Founding year', true]]);
  });

  it("when a partner has no cases, then its page is []; page 2 holds the rest; another partner's cases never appear", async () => {
    const lister = await newPartner();
    const empty = await newPartner();
    expect((await empty.api.get('/api/financing_cases')).json).toEqual([]);
    const ids: string[] = [];
    for (let index = 0; index < 32; index += 1) ids.push((await newCase(lister, { submitFinancing: false })).caseId);
    const { caseId: strangers } = await newCase(empty);
    await expectApplied(simulate(empty, strangers, 'requested_document', { label: 'Trade register', category: 'business_registration' }));

    const second = await lister.api.get('/api/financing_cases?page=2');

    expect(second.status).toBe(200);
    expect(second.json).toEqual([(await lister.api.get(`/api/financing_cases/${ids[1]}`)).json, (await lister.api.get(`/api/financing_cases/${ids[0]}`)).json]);
    expect((await lister.api.get('/api/financing_cases?page=3')).json).toEqual([]);
    expect((await empty.api.get('/api/financing_cases')).json).toEqual([(await empty.api.get(`/api/financing_cases/${strangers}`)).json]);
    expect((await lister.api.get('/api/financing_cases')).json.map((listed: { id: string }) => listed.id)).toEqual(ids.slice(2).reverse());
  });
});

describe('GET /api/quotes/{id} (deprecated)', () => {
  it('when the partner reads its quote, then every field of the quote is there with the deprecation headers pointing at the case', async () => {
    const { caseId, quoteId } = await newCase(owner, { submitFinancing: false, quoteNumber: `QN-${Date.now()}` });
    const response = await owner.api.get(`/api/quotes/${quoteId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('deprecation')).toBe('true');
    expect(response.headers.get('sunset')).toBe('Mon, 01 Feb 2027 00:00:00 GMT');
    expect(response.headers.get('link')).toBe(`</api/financing_cases/${caseId}>; rel="successor-version"`);
    const address = sampleCustomerAddress;
    expect(response.json).toEqual({
      '@id': `/api/quotes/${quoteId}`,
      '@type': 'Quote',
      id: quoteId,
      quoteNumber: expect.stringMatching(/^QN-/),
      calculationType: 'leasing',
      duration: 36,
      customer: caseCustomer,
      partner: { '@id': `/api/partners/${owner.partner.id}`, '@type': 'Partner', id: owner.partner.id },
      status: 'in_progress',
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      statusUpdatedAt: expect.stringMatching(ISO),
      distributionHub: 'hub-north',
      shippingAddress: address,
      effectiveShippingAddress: address,
      calculation: null,
      items: [
        {
          position: 1,
          quantity: 1,
          pricePerItem: 1000,
          total: 1000,
          productNumber: 'LAPTOP-1',
          productName: 'Laptop',
          productSku: 'SKU-1',
          categorySlug: 'laptops',
        },
      ],
      inReviewSince: null,
      inReview: false,
      hasReceivedReminder: false,
      receivedReminder: false,
      reminderCount: 0,
      lastReminderAt: null,
      lenderSubmissionStatus: null,
      lastLenderSubmissionAt: null,
      contract: null,
      cart: expect.stringMatching(/^\/api\/carts\/TEST-CART-/),
      financingResponses: [],
      activeFinancingResponses: [],
      apiCall: true,
      financeRejectedOverride: false,
      authorizedPersons: [],
      quoteFeedbacks: [],
      quoteRequest: null,
      financingNumber: null,
      financingCaseId: caseId,
      processingFee: null,
      recurringService: null,
      specialAgreements: null,
      rentalFactor: '3.180',
      residualValue: null,
      paymentInterval: 'monthly',
      commissionPercentage: 0,
      deletedAt: null,
      deleted: false,
      totalValue: 1000,
      monthlyCosts: 31.8,
      monthlyRateAllIn: 34.3,
      selectedOffer: { calculationType: 'leasing', duration: 36, rate: 31.8 },
      productSector: 'IT_AND_OFFICE_EQUIPMENT',
      contactPhone: null,
      contactEmail: null,
    });
  });

  it('when the quote is accepted and has a contract, then the contract and the active financing response show on it', async () => {
    const { caseId, quoteId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, caseId, 'wait_for_signing'));
    const quote = (await owner.api.get(`/api/quotes/${quoteId}`)).json;
    const [contract] = await query<{ id: string }>('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId]);
    expect(quote.contract).toBe(`/api/contracts/${contract!.id}`);
    expect(quote.financingResponses).toEqual([{ id: expect.any(Number), decision: 'accepted', active: true, createdAt: expect.stringMatching(ISO) }]);
    expect(quote.activeFinancingResponses).toEqual(quote.financingResponses);
  });

  it("when another partner's or an unknown quote is read, then 404 without deprecation headers", async () => {
    const { quoteId } = await newCase(owner);
    for (const response of [await stranger.api.get(`/api/quotes/${quoteId}`), await owner.api.get('/api/quotes/01JABCDEFGHJKMNPQRSTVWXYZ0')]) {
      expectProblem(response, 404, 'quote.not_found');
      expect(response.headers.get('deprecation')).toBeNull();
    }
  });

  it("when the fixture partner beta reads acme's case or quote, then 404; acme reads both", async () => {
    const { financingCaseId, quoteId } = await createCaseViaGrpc(sharedStack(), 'acme');
    const acme = apiAs(fixturePartnerKey('acme'));
    const beta = apiAs(fixturePartnerKey('beta'));
    expectProblem(await beta.get(`/api/quotes/${quoteId}`), 404);
    expectProblem(await beta.get(`/api/financing_cases/${financingCaseId}`), 404);
    expect((await acme.get(`/api/quotes/${quoteId}`)).json.id).toBe(quoteId);
    expect((await acme.get(`/api/financing_cases/${financingCaseId}`)).json.id).toBe(financingCaseId);
  });
});
