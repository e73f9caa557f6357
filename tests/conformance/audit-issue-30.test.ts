/**
 * Findings of the outside passes of issue 30 (bad input, contract details), over the real
 * processes of the shared stack. Each case failed before its fix; the webhook fairness, the
 * pages' security headers, the customer page's questions and the identity provider's lockout
 * are tested in their areas (notifications/fairness, customer/customer-page, backoffice/console,
 * backoffice/sign-in-lockout), the lender callback in lender/production-path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { LOG_FLUSH_INTERVAL_MS } from '@rental/logger';
import { ApiClient, ApiResponse, waitFor } from '@rental/testkit';
import { Owner, expectApplied, expectProblem, movesOf, newCase, newPartner, query, simulate } from '../case-workflow/support/kit';
import { operatorToken } from '../backoffice/support/kit';
import { quoteInProgress, requestItems, tokenOf } from '../customer/support/customer-kit';
import { problemTypeOf } from '../support/problems';
import { sharedStack } from '../support/shared-stack';

const PROBLEM = 'application/problem+json; charset=utf-8';

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

/** A link sent to the customer of a new case of the owner: its token and case. */
async function sentLink(): Promise<{ caseId: string; token: string }> {
  const { caseId } = await quoteInProgress(owner, sharedStack());
  const sent = await owner.api.post(`/api/financing_cases/${caseId}/send-to-customer`, {});
  expect(sent.status).toBe(200);
  return { caseId, token: tokenOf(sent.json.customerUrl) };
}

describe('2. JSON nested thousands of levels deep', () => {
  const deepArray = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  const deepObject = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;

  function expectTooDeep(response: ApiResponse): void {
    expect([response.status, response.contentType]).toEqual([400, PROBLEM]);
    expect(response.json).toEqual(
      expect.objectContaining({
        type: problemTypeOf('request.nesting_too_deep'),
        status: 400,
        detail: 'The JSON body is nested more than 64 levels deep.',
        violations: [{ propertyPath: '', code: 'request.nesting_too_deep', message: 'At most 64 levels of nested arrays and objects.' }],
      }),
    );
  }

  it.each([
    ['pricing', '/api/calculate/estimate'],
    ['cart-checkout', '/api/carts'],
    ['case-workflow', '/api/sandbox/financing_cases/01J9ZZZZZZZZZZZZZZZZZZZZZZ/simulate'],
    ['documents', '/api/financing-cases/01J9ZZZZZZZZZZZZZZZZZZZZZZ/document-requests/information/1/respond'],
    ['notifications', '/api/webhook_endpoints'],
  ])('when a partner sends one to %s, then 400 request.nesting_too_deep, never a stack overflow', async (_service, route) => {
    for (const body of [deepArray, deepObject]) expectTooDeep(await owner.api.request('POST', route, { rawBody: body }));
  });

  it('when an operator sends one to /ops, then 400 request.nesting_too_deep', async () => {
    const ops = new ApiClient(sharedStack().gatewayUrl);
    const headers = { Authorization: `Bearer ${await operatorToken('reviewer')}`, 'Content-Type': 'application/json' };
    const { caseId } = await newCase(owner);
    for (const body of [deepArray, deepObject])
      expectTooDeep(await ops.request('POST', `/ops/v1/cases/${caseId}/notes`, { key: null, rawBody: body, headers }));
  });

  it('when a customer sends one to /customer/v1, then 400 request.nesting_too_deep', async () => {
    const { token } = await sentLink();
    const customer = new ApiClient(sharedStack().gatewayUrl);
    for (const route of [`/customer/v1/quotes/${token}/feedback`, `/customer/v1/quotes/${token}/information/1/respond`]) {
      for (const body of [deepArray, deepObject]) expectTooDeep(await customer.request('POST', route, { key: null, rawBody: body }));
    }
  });

  it('when the body is 64 levels deep, then it is read as usual', async () => {
    const response = await owner.api.request('POST', '/api/carts', { rawBody: `{"items":${'['.repeat(63)}${']'.repeat(63)}}` });
    expect(response.status).toBe(422);
  });
});

describe("3. a NUL in the customer page's feedback form", () => {
  /** Every line every process of the shared stack has logged so far, as written. */
  function everyLogLine(): string {
    const directory = sharedStack().logDirectory;
    return fs
      .readdirSync(directory)
      .filter((name) => name.endsWith('.log'))
      .map((name) => fs.readFileSync(path.join(directory, name), 'utf8'))
      .join('\n');
  }

  it('when the text holds a NUL, then 422 naming the text field, nothing changes, and no log line carries the link token', async () => {
    const { caseId, token } = await sentLink();
    const requestId = randomUUID();
    const response = await fetch(`${sharedStack().gatewayUrl}/c/${token}/feedback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Request-Id': requestId },
      body: new URLSearchParams({ action: 'request_changes', text: 'More\u0000months' }).toString(),
      redirect: 'manual',
    });
    const page = await response.text();
    expect([response.status, response.headers.get('content-type')]).toEqual([422, 'text/html; charset=utf-8']);
    expect(page).toContain('<a href="#text">The text cannot contain a NUL character; remove it and send again.</a>');
    expect(page).toContain('<textarea id="text" name="text" maxlength="2000" aria-invalid="true" aria-describedby="errors">');
    expect((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status).toBe('in_review');

    // The gateway writes an access line for every call; the services' lines come out as quickly.
    await waitFor(() => (everyLogLine().includes(requestId) ? true : undefined), { what: 'the access line of the feedback' });
    await new Promise((resolve) => setTimeout(resolve, LOG_FLUSH_INTERVAL_MS * 3));
    expect(everyLogLine()).not.toContain(token);
  });
});

describe("8. the customer's answer to a question", () => {
  it('when the customer answers, then 200 with the customer view, the question provided in it', async () => {
    const { caseId, token } = await sentLink();
    const [item] = await requestItems(sharedStack(), owner.partner.id, caseId, 'information', [
      { label: 'Employees', category: 'other', question: 'How many employees?', targetAudience: 'customer' },
    ]);
    const customer = new ApiClient(sharedStack().gatewayUrl);

    const answered = await customer.post(`/customer/v1/quotes/${token}/information/${item?.id}/respond`, { response: 'Twelve' }, { key: null });

    expect(answered.status).toBe(200);
    expect(answered.json).toEqual((await customer.get(`/customer/v1/quotes/${token}`, { key: null })).json);
    expect(answered.json).toEqual(expect.objectContaining({ status: 'in_review', actions: ['accept', 'request_changes', 'reject'] }));
    expect(answered.json.requestedItems).toEqual([
      {
        id: item?.id,
        type: 'information',
        label: 'Employees',
        question: 'How many employees?',
        status: 'provided',
        category: 'other',
        optional: false,
        dueAt: null,
      },
    ]);
  });
});

describe('9. financeCaseLink of the checkout answer', () => {
  it('when a cart is checked out, then financeCaseLink and quoteLink are URLs under PUBLIC_BASE_URL that the partner can follow', async () => {
    const cart = await owner.api.post('/api/carts', {
      items: [{ productNumber: `AUDIT30-${randomUUID()}`, productName: 'Laptop', quantity: 1, price: 1000, categorySlug: 'laptops' }],
    });
    const checkout = await owner.api.post(
      `/api/carts/${cart.json.cartId}/checkout`,
      {
        duration: 36,
        financingType: 'leasing',
        customer: { company: 'Mustermann GmbH' },
      },
      { headers: { 'Idempotency-Key': randomUUID() } },
    );

    expect(checkout.status).toBe(201);
    const { gatewayUrl } = sharedStack();
    expect([checkout.json.financeCaseLink, checkout.json.quoteLink]).toEqual([
      `${gatewayUrl}/api/financing_cases/${checkout.json.financeCaseId}`,
      `${gatewayUrl}/api/quotes/${checkout.json.quoteId}`,
    ]);
    const followed = await owner.api.get(new URL(checkout.json.financeCaseLink).pathname);
    expect([followed.status, followed.json.id]).toEqual([200, checkout.json.financeCaseId]);
  });
});

describe('10. the sandbox scenario completed', () => {
  it("when the contract completes in the sandbox, then the quote completes with its complete event, as the approval team's transition does in production", async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, caseId, 'signed'));
    const [contract] = await query<{ id: string }>('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId]);
    expect((await owner.api.patch(`/api/contracts/${contract?.id}/edit-contract-number`, { contractNumber: `C30-${caseId}` })).status).toBe(200);

    await expectApplied(simulate(owner, caseId, 'completed'));

    expect((await movesOf(caseId)).slice(-2)).toEqual([
      'contract:invoice_checked>completed:complete:finance_accepted',
      'quote:finance_accepted>completed:complete:completed',
    ]);
    expect((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status).toBe('completed');
    expectProblem(await simulate(owner, caseId, 'finance_rejected'), 422);
  });
});
