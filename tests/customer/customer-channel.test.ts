import { ApiClient, waitFor } from '@rental/testkit';
import { ISO, Owner, eventsOf, expectProblem, expectViolations, newCase, newPartner, query, sharedStack } from '../case-workflow/support/kit';
import { PDF_FILE, customerEmail, linkIn, mailsTo, quoteInProgress, requestItems, tokenOf, uploadForm } from './support/customer-kit';

let owner: Owner;
let stranger: Owner;
let customer: ApiClient;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([newPartner(), newPartner()]);
  customer = new ApiClient(sharedStack().gatewayUrl);
});

const stack = () => sharedStack();
const sendToCustomer = (caseId: string, body: unknown = {}, as: Owner = owner) => as.api.post(`/api/financing_cases/${caseId}/send-to-customer`, body);
const viewOf = (token: string) => customer.get(`/customer/v1/quotes/${token}`);
const transitionsOf = async (caseId: string) => (await eventsOf(caseId)).map((event) => event.data.transition);

/** A quote sent to its customer: the case, the token of the link, and the customer's address. */
async function sentQuote(): Promise<{ caseId: string; quoteId: string; token: string; email: string }> {
  const { caseId, quoteId, email } = await quoteInProgress(owner, stack());
  const sent = await sendToCustomer(caseId);
  expect(sent.status).toBe(200);
  return { caseId, quoteId, token: tokenOf(sent.json.customerUrl), email: email as string };
}

describe('send-to-customer', () => {
  it('when an in_progress quote is sent, then it is in_review with one finalize event, the answer names the link, and the customer gets it by mail', async () => {
    const { caseId, email } = await quoteInProgress(owner, stack());
    const before = Date.now();
    const sent = await sendToCustomer(caseId);
    expect([sent.status, sent.contentType]).toEqual([200, 'application/json; charset=utf-8']);
    expect(sent.json).toEqual({
      financingCaseId: caseId,
      status: 'in_review',
      customerUrl: expect.stringMatching(new RegExp(`^${stack().gatewayUrl}/c/[A-Za-z0-9_-]{43}$`)),
      expiresAt: expect.stringMatching(ISO),
    });
    // CUSTOMER_LINK_TTL defaults to 30 days.
    expect(Date.parse(sent.json.expiresAt) - before).toBeGreaterThanOrEqual(30 * 86_400_000 - 1000);
    expect(Date.parse(sent.json.expiresAt) - before).toBeLessThan(30 * 86_400_000 + 60_000);
    expect(await transitionsOf(caseId)).toEqual(['create', 'finalize']);
    const mails = await waitFor(
      async () => {
        const received = await mailsTo(email as string, stack());
        return received.length > 0 ? received : undefined;
      },
      { what: 'the customer link mail' },
    );
    expect(mails).toHaveLength(1);
    expect(linkIn(mails[0] as never)).toBe(sent.json.customerUrl);
    // Only a hash of the token is stored.
    const stored = await query<{ token_hash: string }>('SELECT token_hash FROM customer_links WHERE financing_case_id = $1', [caseId]);
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(tokenOf(sent.json.customerUrl));
  });

  it('when a quote in_review is sent again, then there is no new event, the new link works and the earlier one answers 410', async () => {
    const { caseId, token } = await sentQuote();
    const again = await sendToCustomer(caseId, { email: 'someone.else@customer.example' });
    expect([again.status, again.json.status]).toEqual([200, 'in_review']);
    expect(await transitionsOf(caseId)).toEqual(['create', 'finalize']);
    expectProblem(await viewOf(token), 410, 'customer.link_expired');
    expect((await viewOf(tokenOf(again.json.customerUrl))).status).toBe(200);
  });

  it("when the case is unknown, another partner's, in another status, or has no customer e-mail, then 404, 403, 422 and 422 at email, and nothing changes", async () => {
    expectProblem(await sendToCustomer('01AAAAAAAAAAAAAAAAAAAAAAAA'), 404, 'financing_case.not_found');
    const { caseId } = await quoteInProgress(owner, stack());
    expectProblem(await sendToCustomer(caseId, {}, stranger), 403);
    expectProblem(await owner.readOnly.post(`/api/financing_cases/${caseId}/send-to-customer`, {}), 403, 'auth.role_required');
    expectViolations(await sendToCustomer(caseId, { email: 'not-an-address' }), [['email', 'validation.format']]);
    const financed = await newCase(owner);
    expectProblem(await sendToCustomer(financed.caseId), 422, 'customer.send_not_allowed');
    const noEmail = await quoteInProgress(owner, stack(), { email: null });
    expectViolations(await sendToCustomer(noEmail.caseId), [['email', 'validation.required']]);
    expect(await transitionsOf(caseId)).toEqual(['create']);
    expect(await transitionsOf(noEmail.caseId)).toEqual(['create']);
  });
});

describe('the customer view', () => {
  it("when the customer opens the link, then the offer shows without the partner's conditions, with the actions allowed now", async () => {
    const { token } = await sentQuote();
    const view = await viewOf(token);
    expect([view.status, view.contentType]).toEqual([200, 'application/json; charset=utf-8']);
    expect(view.json).toEqual({
      quoteNumber: expect.stringMatching(/^Q-\d{4}-\d{6}$/),
      partner: { name: expect.any(String) },
      customer: { company: 'Kunde GmbH' },
      status: 'in_review',
      calculationType: 'leasing',
      duration: 36,
      paymentInterval: 'monthly',
      monthlyRate: 34.3,
      items: [{ position: 1, productNumber: 'LAPTOP-1', productName: 'Laptop', quantity: 1 }],
      expiresAt: expect.stringMatching(ISO),
      actions: ['accept', 'request_changes', 'reject'],
      requestedItems: [],
    });
    for (const secret of ['rentalFactor', 'commission', 'surcharge', '3.18']) expect(view.text).not.toContain(secret);
  });

  it('when a token is unknown or malformed, then 404; when the case was canceled, then 410', async () => {
    expectProblem(await viewOf('not-a-token'), 404, 'customer.link_not_found');
    expectProblem(await viewOf('A'.repeat(43)), 404, 'customer.link_not_found');
    const { caseId, token } = await sentQuote();
    expect((await owner.api.post(`/api/financing_cases/${caseId}/cancel`)).status).toBe(204);
    expectProblem(await viewOf(token), 410, 'customer.link_expired');
    expectProblem(await customer.post(`/customer/v1/quotes/${token}/accept`), 410, 'customer.link_expired');
  });

  it('when the customer sends identity headers or an API key, then they are dropped and the link alone decides', async () => {
    const { token } = await sentQuote();
    const response = await customer.get(`/customer/v1/quotes/${token}`, {
      headers: { 'X-Rental-Partner-Id': stranger.partner.id, 'X-Api-Key': stranger.partner.key },
    });
    expect(response.status).toBe(200);
  });

  it('when the offer PDF is fetched, then it is a PDF of the offer', async () => {
    const { token } = await sentQuote();
    const response = await fetch(`${stack().gatewayUrl}/customer/v1/quotes/${token}/offer.pdf`);
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
  });
});

describe("the customer's answers", () => {
  it('when the customer accepts, then accept_by_customer and request_finance_review follow, the lender submission is queued, and the partner sees finance_review', async () => {
    const { caseId, token } = await sentQuote();
    const accepted = await customer.post(`/customer/v1/quotes/${token}/accept`);
    expect([accepted.status, accepted.json.status, accepted.json.actions]).toEqual([200, 'finance_review', []]);
    expect(await transitionsOf(caseId)).toEqual(['create', 'finalize', 'accept_by_customer', 'request_finance_review']);
    const partnerView = (await owner.api.get(`/api/financing_cases/${caseId}`)).json;
    expect([partnerView.status, partnerView.financingRequest]).toEqual(['finance_review', true]);
    expect(await query('SELECT count(*)::int AS n FROM lender_submissions WHERE financing_case_id = $1', [caseId])).toEqual([{ n: 1 }]);
    const history = await query<{ actor_type: string; action: string }>(
      "SELECT actor_type, action FROM case_history WHERE financing_case_id = $1 AND action IN ('accept_by_customer', 'request_finance_review') ORDER BY id",
      [caseId],
    );
    expect(history).toEqual([
      { actor_type: 'customer', action: 'accept_by_customer' },
      { actor_type: 'customer', action: 'request_finance_review' },
    ]);
    expectProblem(await customer.post(`/customer/v1/quotes/${token}/accept`), 422, 'customer.action_not_allowed');
  });

  it('when the customer asks for changes, then the text is required, the quote is change_requested, and the partner sees the feedback on the quote', async () => {
    const { caseId, quoteId, token } = await sentQuote();
    expectViolations(await customer.post(`/customer/v1/quotes/${token}/feedback`, { action: 'request_changes', text: '  ' }), [
      ['text', 'validation.required'],
    ]);
    expectViolations(await customer.post(`/customer/v1/quotes/${token}/feedback`, { action: 'maybe' }), [['action', 'validation.choice']]);
    const answered = await customer.post(`/customer/v1/quotes/${token}/feedback`, { action: 'request_changes', text: 'Please 48 months.' });
    expect([answered.status, answered.json.status]).toEqual([200, 'change_requested']);
    const quote = await owner.api.get(`/api/quotes/${quoteId}`);
    expect(quote.json.quoteFeedbacks).toEqual([
      { id: expect.any(Number), quote: `/api/quotes/${quoteId}`, text: 'Please 48 months.', action: 'request_changes', createdAt: expect.stringMatching(ISO) },
    ]);
    const again = await sendToCustomer(caseId);
    expect([again.status, again.json.status]).toEqual([200, 'in_review']);
    expect(await transitionsOf(caseId)).toEqual(['create', 'finalize', 'request_changes', 'apply_changes']);
    expectProblem(await viewOf(token), 410, 'customer.link_expired');
  });

  it('when the customer rejects, then the quote is rejected_by_customer with its feedback and the link shows no actions', async () => {
    const { caseId, quoteId, token } = await sentQuote();
    const answered = await customer.post(`/customer/v1/quotes/${token}/feedback`, { action: 'reject_by_customer' });
    expect([answered.status, answered.json.status, answered.json.actions]).toEqual([200, 'rejected_by_customer', []]);
    expect(await transitionsOf(caseId)).toEqual(['create', 'finalize', 'reject_by_customer']);
    expect((await owner.api.get(`/api/quotes/${quoteId}`)).json.quoteFeedbacks).toEqual([
      expect.objectContaining({ text: null, action: 'reject_by_customer' }),
    ]);
  });
});

describe('a checkout with submitFinancing', () => {
  it('when the checkout gives an e-mail, then the customer gets a view-only link: status and requests, no actions', async () => {
    const email = customerEmail();
    const { caseId } = await newCase(owner, {
      customer: {
        firstName: 'Ida',
        lastName: 'Roth',
        email,
        company: 'Roth KG',
        street: 'Ring',
        houseNumber: '2',
        zipCode: '50667',
        city: 'Köln',
        country: 'DE',
        phone: '',
        vatId: '',
        customerType: 'company',
      },
    });
    const mail = await waitFor(async () => (await mailsTo(email, stack()))[0], { what: 'the checkout link mail' });
    const token = tokenOf(linkIn(mail));
    const view = await viewOf(token);
    expect([view.status, view.json.status, view.json.actions]).toEqual([200, 'finance_review', []]);
    expectProblem(await customer.post(`/customer/v1/quotes/${token}/accept`), 403, 'customer.view_only');
    expectProblem(await customer.post(`/customer/v1/quotes/${token}/feedback`, { action: 'reject_by_customer' }), 403, 'customer.view_only');
    expect(await transitionsOf(caseId)).toEqual(['create', 'accept_by_customer', 'request_finance_review']);
  });
});

describe("the customer's requested items", () => {
  it('when the customer uploads a requested document, then it answers the request, and the partner neither lists nor downloads it', async () => {
    const { caseId, token } = await sentQuote();
    const [item] = await requestItems(stack(), owner.partner.id, caseId, 'document', [
      { label: 'ID card of the managing director', category: 'business_registration', targetAudience: 'customer' },
    ]);
    const view = await viewOf(token);
    expect(view.json.requestedItems).toEqual([
      {
        id: item?.id,
        type: 'document',
        label: 'ID card of the managing director',
        question: null,
        status: 'pending',
        category: 'business_registration',
        optional: false,
        dueAt: null,
      },
    ]);

    const missing = await customer.request('POST', `/customer/v1/quotes/${token}/documents`, { rawBody: uploadForm({}) });
    expectViolations(missing, [['requestedDocumentId', 'validation.required']]);
    const uploaded = await customer.request('POST', `/customer/v1/quotes/${token}/documents`, {
      rawBody: uploadForm({ requestedDocumentId: String(item?.id) }),
    });
    expect([uploaded.status, uploaded.json]).toEqual([
      201,
      {
        id: expect.any(Number),
        fileName: 'id-card.pdf',
        mimeType: 'application/pdf',
        fileSize: PDF_FILE.length,
        requestedDocumentId: item?.id,
        uploadedAt: expect.stringMatching(ISO),
      },
    ]);
    expect((await viewOf(token)).json.requestedItems[0].status).toBe('provided');
    expect((await owner.api.get(`/api/financing-cases/${caseId}/documents`)).json).toEqual([]);
    expectProblem(await owner.api.get(`/api/documents/${uploaded.json.id}/download`), 404);
  });

  it("when a partner-audience item or another case's item is named, then 404 and nothing is stored", async () => {
    const { caseId, token } = await sentQuote();
    const other = await sentQuote();
    const [partnerItem] = await requestItems(stack(), owner.partner.id, caseId, 'document', [
      { label: 'Register', category: 'business_registration', targetAudience: 'partner' },
    ]);
    const [foreignItem] = await requestItems(stack(), owner.partner.id, other.caseId, 'document', [
      { label: 'Register', category: 'business_registration', targetAudience: 'customer' },
    ]);
    for (const id of [partnerItem?.id, foreignItem?.id]) {
      expectProblem(
        await customer.request('POST', `/customer/v1/quotes/${token}/documents`, { rawBody: uploadForm({ requestedDocumentId: String(id) }) }),
        404,
        'document_request.not_found',
      );
    }
  });

  it('when the customer answers a question, then it is provided in the customer view the answer is; a second answer is 422', async () => {
    const { caseId, token } = await sentQuote();
    const [item] = await requestItems(stack(), owner.partner.id, caseId, 'information', [
      { label: 'Employees', category: 'other', question: 'How many employees?', targetAudience: 'customer' },
    ]);
    const answered = await customer.post(`/customer/v1/quotes/${token}/information/${item?.id}/respond`, { response: 'Twelve' });
    expect([answered.status, answered.json.status, answered.json.requestedItems]).toEqual([
      200,
      'in_review',
      [expect.objectContaining({ id: item?.id, question: 'How many employees?', status: 'provided' })],
    ]);
    expectViolations(await customer.post(`/customer/v1/quotes/${token}/information/${item?.id}/respond`, { response: 'Thirteen' }), [
      ['', 'document_request.not_pending'],
    ]);
    expectViolations(await customer.post(`/customer/v1/quotes/${token}/information/${item?.id}/respond`, {}), [['response', 'validation.required']]);
  });
});
