import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ApiClient, ApiResponse, TestPartner, WebhookReceiver, createTestPartner, waitFor } from '@rental/testkit';
import { download, sampleFile, upload } from '../documents/support/kit';
import { outboxOfPartner } from '../faults/support/traffic';
import { registerEndpoint } from '../notifications/support';
import type { ProblemCode } from '@rental/proto';
import { problemInstanceOf, problemTitleOf, problemTypeOf } from '../support/problems';
import { apiAs, sharedStack } from '../support/shared-stack';

/**
 * Partner B holds a valid key and knows (or guesses) every id of partner A. For each resource the
 * specification names the answer (403 where it lists it for another partner's resource, else
 * 404); the body is problem+json, says nothing of A, a 404 is the very answer an unknown id gets,
 * and A's resources read the same before and after.
 */

const PROBLEM = 'application/problem+json; charset=utf-8';
const UNKNOWN_ULID = '01J9ZZZZZZZZZZZZZZZZZZZZZZ';
const UNKNOWN_INTEGER = '999999999';

interface Alpha {
  partner: TestPartner;
  api: ApiClient;
  calculationId: string;
  quoteRequestId: number;
  activeCartId: string;
  checkedOutCartId: string;
  idempotencyKey: string;
  checkoutBody: Record<string, unknown>;
  caseId: string;
  quoteId: string;
  contractId: string;
  documentId: number;
  documentBytes: Buffer;
  items: { document: number; information: number; fillAndReturn: number };
  endpointId: string;
  endpointSecret: string;
  /** Strings only A may ever see: names, numbers, amounts, addresses, ids that B was not given. */
  secrets: string[];
}

interface Beta {
  partner: TestPartner;
  api: ApiClient;
  caseId: string;
  receiver: WebhookReceiver;
}

let alpha: Alpha;
let beta: Beta;
let alphaReceiver: WebhookReceiver;
let before: Record<string, unknown>;

const tag = randomBytes(3).toString('hex').toUpperCase();
const alphaCustomer = {
  company: `Alpha Secret ${tag} GmbH`,
  email: `cfo-${tag.toLowerCase()}@alpha-secret.example`,
  firstName: 'Alphonse',
  lastName: `Geheim${tag}`,
  city: 'Geheimstadt',
};
const ALPHA_PRICE = 4321.09;

function expectOk(response: ApiResponse, status: number): ApiResponse {
  expect([response.status, response.text.slice(0, 300)]).toEqual([status, expect.any(String)]);
  return response;
}

async function buildAlpha(): Promise<Alpha> {
  const partner = await createTestPartner(sharedStack(), { like: 'acme' });
  const api = apiAs(partner.key);
  const endpoint = await registerEndpoint(api, `${alphaReceiver.url}/alpha-${tag}`);

  const calculation = expectOk(
    await api.post('/api/calculate', {
      durations: [36],
      calculationTypes: ['leasing'],
      acquisitionCost: ALPHA_PRICE,
      productSector: 'IT_AND_OFFICE_EQUIPMENT',
    }),
    201,
  ).json;
  const quoteRequest = expectOk(
    await api.post('/api/quote_requests', {
      email: alphaCustomer.email,
      firstName: alphaCustomer.firstName,
      lastName: alphaCustomer.lastName,
      customerType: 'company',
      street: 'Verborgene Gasse 7',
      postalCode: '99999',
      city: alphaCustomer.city,
      country: 'DE',
      company: alphaCustomer.company,
      acknowledgedPrivacy: true,
      calculation: calculation.uri,
    }),
    201,
  ).json;

  const item = { productNumber: `ALPHA-${tag}`, productName: `Alpha Secret Laptop ${tag}`, quantity: 1, price: ALPHA_PRICE, categorySlug: 'laptops' };
  const activeCart = expectOk(await api.post('/api/carts', { items: [item] }), 201).json;
  const checkedOutCart = expectOk(await api.post('/api/carts', { items: [item] }), 201).json;
  const idempotencyKey = randomUUID();
  const checkoutBody = { duration: 36, financingType: 'leasing', customer: alphaCustomer, quoteNumber: `ALPHA-Q-${tag}` };
  const checkout = expectOk(
    await api.post(`/api/carts/${checkedOutCart.cartId}/checkout`, checkoutBody, { headers: { 'Idempotency-Key': idempotencyKey } }),
    201,
  ).json;
  const caseId: string = checkout.financeCaseId;
  const simulate = (scenario: string, data?: unknown) =>
    api.post(`/api/sandbox/financing_cases/${caseId}/simulate`, data === undefined ? { scenario } : { scenario, data });

  expectOk(
    await simulate('requested_document', { items: [{ label: `Alpha secret register ${tag}`, category: 'business_registration', optional: true }] }),
    204,
  );
  expectOk(await simulate('information_requested', { question: `Alpha secret question ${tag}?` }), 204);
  expectOk(await simulate('requested_fill_and_return', { items: [{ label: `Alpha secret disclosure ${tag}`, category: 'self_disclosure_template' }] }), 204);
  const listed: { id: number; type: string }[] = expectOk(await api.get(`/api/financing-cases/${caseId}/document-requests`), 200).json;
  const idOf = (type: string) => listed.find((entry) => entry.type === type)!.id;

  const documentBytes = sampleFile('pdf');
  const document = expectOk(
    await upload(api, caseId, {
      file: { bytes: documentBytes, name: `alpha-secret-${tag}.pdf` },
      category: 'other',
      description: `Alpha secret description ${tag}`,
    }),
    201,
  ).json;

  expectOk(await simulate('finance_accepted'), 204);
  const signature = expectOk(
    await api.post(`/api/financing-cases/${caseId}/start-esignature`, {
      authorizedPersons: [{ firstName: 'Alphonse', lastName: `Geheim${tag}`, email: alphaCustomer.email, soloSigneePermitted: true }],
    }),
    200,
  ).json;
  const contractNumber = `ALPHA-CN-${tag}`;
  expectOk(await api.patch(`/api/contracts/${signature.contractId}/edit-contract-number`, { contractNumber }), 200);
  const quote = expectOk(await api.get(`/api/quotes/${checkout.quoteId}`), 200).json;
  const financingCase = expectOk(await api.get(`/api/financing_cases/${caseId}`), 200).json;

  return {
    partner,
    api,
    calculationId: calculation.id,
    quoteRequestId: quoteRequest.id,
    activeCartId: activeCart.cartId,
    checkedOutCartId: checkedOutCart.cartId,
    idempotencyKey,
    checkoutBody,
    caseId,
    quoteId: checkout.quoteId,
    contractId: signature.contractId,
    documentId: document.id,
    documentBytes,
    items: { document: idOf('document'), information: idOf('information'), fillAndReturn: idOf('fill_and_return') },
    endpointId: endpoint.id,
    endpointSecret: endpoint.secret,
    secrets: [
      partner.id,
      alphaCustomer.company,
      alphaCustomer.email,
      alphaCustomer.lastName,
      alphaCustomer.city,
      String(ALPHA_PRICE),
      financingCase.caseNumber,
      quote.quoteNumber,
      contractNumber,
      `alpha-${tag}`,
      signature.envelopeId,
      `Alpha secret question ${tag}`,
      `Alpha secret register ${tag}`,
      `Alpha secret description ${tag}`,
      `alpha-secret-${tag}.pdf`,
      endpoint.secret.slice(6),
    ],
  };
}

/** Everything A can read of its resources: compared before and after B's attempts. */
async function alphaView(): Promise<Record<string, unknown>> {
  const { api, caseId } = alpha;
  const read = async (path: string) => {
    const response = await api.get(path);
    return { status: response.status, body: response.json };
  };
  const bytes = async (path: string) => {
    const fetched = await download(sharedStack(), alpha.partner.key, path);
    return { status: fetched.status, sha256: createHash('sha256').update(fetched.bytes).digest('hex') };
  };
  return {
    calculation: await read(`/api/calculations/${alpha.calculationId}`),
    quoteRequest: await read(`/api/quote_requests/${alpha.quoteRequestId}`),
    quoteRequests: await read('/api/quote_requests'),
    activeCart: await read(`/api/carts/${alpha.activeCartId}`),
    checkedOutCart: await read(`/api/carts/${alpha.checkedOutCartId}`),
    financingCase: await read(`/api/financing_cases/${caseId}`),
    financingCases: await read('/api/financing_cases'),
    quote: await read(`/api/quotes/${alpha.quoteId}`),
    contract: await read(`/api/contracts/${alpha.contractId}`),
    documents: await read(`/api/financing-cases/${caseId}/documents`),
    document: await read(`/api/documents/${alpha.documentId}`),
    documentContent: await bytes(`/api/documents/${alpha.documentId}/download`),
    documentRequests: await read(`/api/financing-cases/${caseId}/document-requests`),
    template: await bytes(`/api/financing-cases/${caseId}/document-requests/fill-and-return-templates/${alpha.items.fillAndReturn}/download`),
    endpoint: await read(`/api/webhook_endpoints/${alpha.endpointId}`),
    endpoints: await read('/api/webhook_endpoints'),
    deliveries: await read(`/api/webhook_endpoints/${alpha.endpointId}/deliveries`),
  };
}

/** The body says nothing of A beyond the id B put in the path. */
function expectNoTrace(response: ApiResponse, what: string): void {
  for (const secret of alpha.secrets) expect([what, response.text.includes(secret)]).toEqual([what, false]);
  for (const id of [alpha.quoteId, alpha.contractId, alpha.calculationId, alpha.endpointId, alpha.activeCartId, alpha.checkedOutCartId, alpha.caseId]) {
    if (!what.includes(id)) expect([what, response.text.includes(id)]).toEqual([what, false]);
  }
}

function expectProblemOf(response: ApiResponse, what: string, status: number, code: ProblemCode, detail: unknown): void {
  expect([what, response.status, response.contentType]).toEqual([what, status, PROBLEM]);
  expect([what, response.json]).toEqual([
    what,
    { type: problemTypeOf(code), title: problemTitleOf(code), status, detail, instance: problemInstanceOf(response) },
  ]);
  expectNoTrace(response, what);
}

/** 403 as the specification lists it for another partner's resource. */
function expectForbidden(response: ApiResponse, what: string, code: ProblemCode, detail: string): void {
  expectProblemOf(response, what, 403, code, detail);
}

/** The text with one id (a whole token, not part of a longer id) put in place of another. */
function swapId(text: string, from: string, to: string): string {
  return text.replace(new RegExp(`(?<![A-Za-z0-9])${from}(?![A-Za-z0-9])`, 'g'), to);
}

/**
 * The problem `answer` as the answer to `other` would read with `otherId` in place of `id`: every
 * member but `type` (a URL, whose host may hold the id's digits) with the id swapped, and the
 * instance of the other request.
 */
function problemWithIdSwapped(answer: ApiResponse, other: ApiResponse, id: string, otherId: string): unknown {
  const { type, instance: _instance, ...members } = answer.json;
  return { type, ...JSON.parse(swapId(JSON.stringify(members), id, otherId)), instance: problemInstanceOf(other) };
}

/**
 * 404 that cannot be told from the answer to an id that does not exist: same status, type and
 * detail (with the id swapped; each names its own request as instance), so B learns nothing
 * about the existence of A's resource.
 */
async function expectUnknown(call: (id: string) => Promise<ApiResponse>, alphaId: string, unknownId: string, what: string, code: ProblemCode): Promise<void> {
  const foreign = await call(alphaId);
  const unknown = await call(unknownId);
  expectProblemOf(foreign, `${what} ${alphaId}`, 404, code, expect.any(String));
  expect([what, unknown.status, problemWithIdSwapped(foreign, unknown, alphaId, unknownId)]).toEqual([what, 404, unknown.json]);
}

beforeAll(async () => {
  alphaReceiver = await WebhookReceiver.start();
  const betaReceiver = await WebhookReceiver.start();
  alpha = await buildAlpha();
  const betaPartner = await createTestPartner(sharedStack(), { like: 'acme' });
  const betaApi = apiAs(betaPartner.key);
  await registerEndpoint(betaApi, `${betaReceiver.url}/beta`);
  const betaCart = expectOk(
    await betaApi.post('/api/carts', { items: [{ productNumber: 'BETA-1', quantity: 1, price: 999, categorySlug: 'laptops' }] }),
    201,
  ).json;
  const betaCheckout = expectOk(
    await betaApi.post(`/api/carts/${betaCart.cartId}/checkout`, { duration: 36, financingType: 'leasing', customer: { company: 'Beta GmbH' } }),
    201,
  ).json;
  beta = { partner: betaPartner, api: betaApi, caseId: betaCheckout.financeCaseId, receiver: betaReceiver };

  // A's view settles once every event of its case was delivered and the lender submission is done.
  const written = await outboxOfPartner(sharedStack().databaseUrl, alpha.partner.id);
  await waitFor(
    async () => {
      const deliveries: { status: string }[] = (await alpha.api.get(`/api/webhook_endpoints/${alpha.endpointId}/deliveries`)).json;
      return deliveries.length === written.length && deliveries.every((delivery) => delivery.status === 'succeeded') ? true : undefined;
    },
    { timeoutMs: 20_000, what: "A's events delivered to A's endpoint" },
  );
  await waitFor(async () => ((await alpha.api.get(`/api/quotes/${alpha.quoteId}`)).json.lenderSubmissionStatus === 'submitted' ? true : undefined), {
    what: 'the lender submission',
  });
  before = await alphaView();
  // Each secret is really there for A to read (the endpoint secret only in its create answer), so looking for it in B's answers means something.
  const readable = JSON.stringify(before);
  expect(alpha.secrets.filter((secret) => !readable.includes(secret))).toEqual([alpha.endpointSecret.slice(6)]);
}, 60_000);

afterAll(async () => {
  await alphaReceiver?.close();
  await beta?.receiver.close();
});

afterEach(async () => {
  // Whatever B tried, A reads exactly what it read before.
  expect(await alphaView()).toEqual(before);
});

describe('partner B with the ids of partner A', () => {
  it('when B reads A\'s stored calculation or files a quote request on it, then 404 as for an unknown id, and 422 "unknown calculation"', async () => {
    await expectUnknown((id) => beta.api.get(`/api/calculations/${id}`), alpha.calculationId, UNKNOWN_ULID, 'GET calculation', 'calculation.not_found');

    const person = {
      email: 'b@beta.example',
      firstName: 'B',
      lastName: 'B',
      customerType: 'company',
      street: 'B',
      postalCode: '1',
      city: 'B',
      country: 'DE',
      acknowledgedPrivacy: true,
    };
    const onAlpha = await beta.api.post('/api/quote_requests', { ...person, calculation: `/api/calculations/${alpha.calculationId}` });
    const onUnknown = await beta.api.post('/api/quote_requests', { ...person, calculation: `/api/calculations/${UNKNOWN_ULID}` });
    expect([onAlpha.status, onAlpha.contentType]).toEqual([422, PROBLEM]);
    expect(onAlpha.json.violations).toEqual([expect.objectContaining({ propertyPath: 'calculation', code: 'quote_request.unknown_calculation' })]);
    expect(problemWithIdSwapped(onAlpha, onUnknown, alpha.calculationId, UNKNOWN_ULID)).toEqual(onUnknown.json);
    expectNoTrace(onAlpha, `POST quote request on ${alpha.calculationId}`);
  });

  it("when B reads or replaces A's cart, then 404 as for an unknown cart; checking it out is 403, whatever the state, key or body", async () => {
    const laptop = { items: [{ productNumber: 'B-1', quantity: 1, price: 1, categorySlug: 'laptops' }] };
    for (const cartId of [alpha.activeCartId, alpha.checkedOutCartId]) {
      await expectUnknown((id) => beta.api.get(`/api/carts/${id}`), cartId, UNKNOWN_ULID, 'GET cart', 'cart.not_found');
      await expectUnknown((id) => beta.api.put(`/api/carts/${id}`, laptop), cartId, UNKNOWN_ULID, 'PUT cart', 'cart.not_found');
    }

    // A's own body and Idempotency-Key: B must neither replay A's checkout answer nor learn the cart is checked out.
    const attempts = [
      [alpha.checkedOutCartId, alpha.checkoutBody, alpha.idempotencyKey],
      [alpha.checkedOutCartId, { duration: 36, financingType: 'leasing', customer: { company: 'Beta GmbH' } }, randomUUID()],
      [alpha.activeCartId, { duration: 36, financingType: 'leasing', customer: { company: 'Beta GmbH' } }, randomUUID()],
      [alpha.activeCartId, { duration: 36, financingType: 'leasing', customer: { company: 'Beta GmbH' } }, undefined],
    ] as const;
    for (const [cartId, body, key] of attempts) {
      const response = await beta.api.post(`/api/carts/${cartId}/checkout`, body, key ? { headers: { 'Idempotency-Key': key } } : {});
      expectForbidden(response, `checkout ${cartId}`, 'cart.forbidden', 'This cart belongs to another partner.');
    }
  });

  it("when B reads A's quote request, then 404 as for an unknown one", async () => {
    await expectUnknown(
      (id) => beta.api.get(`/api/quote_requests/${id}`),
      String(alpha.quoteRequestId),
      UNKNOWN_INTEGER,
      'GET quote request',
      'quote_request.not_found',
    );
  });

  it("when B reads A's financing case, quote or contract, then 404 as for unknown ids", async () => {
    await expectUnknown((id) => beta.api.get(`/api/financing_cases/${id}`), alpha.caseId, UNKNOWN_ULID, 'GET financing case', 'financing_case.not_found');
    await expectUnknown((id) => beta.api.get(`/api/quotes/${id}`), alpha.quoteId, UNKNOWN_ULID, 'GET quote', 'quote.not_found');
    await expectUnknown((id) => beta.api.get(`/api/contracts/${id}`), alpha.contractId, UNKNOWN_ULID, 'GET contract', 'contract.not_found');
  });

  it('when B claims to be A in the headers only the gateway may set, then it is still B', async () => {
    const spoofed = {
      'X-Rental-Partner-Id': alpha.partner.id,
      'X-Partner-Id': alpha.partner.id,
      'X-Rental-Roles': 'api_user',
      'X-Rental-Environment': 'sandbox',
    };
    await expectUnknown(
      (id) => beta.api.get(`/api/financing_cases/${id}`, { headers: spoofed }),
      alpha.caseId,
      UNKNOWN_ULID,
      'GET financing case (spoofed)',
      'financing_case.not_found',
    );
    expectForbidden(
      await beta.api.get(`/api/documents/${alpha.documentId}`, { headers: spoofed }),
      'GET document (spoofed)',
      'document.forbidden',
      'The document belongs to another partner.',
    );
    expect((await beta.api.get('/api/financing_cases', { headers: spoofed })).json.map((entry: { id: string }) => entry.id)).toEqual([beta.caseId]);
  });

  it("when B cancels A's case, starts its e-signature or edits its contract number, then 403, also with a body that would be invalid", async () => {
    const forbiddenCase = (response: ApiResponse, what: string) =>
      expectForbidden(response, what, 'financing_case.forbidden', 'The financing case belongs to another partner.');
    forbiddenCase(await beta.api.post(`/api/financing_cases/${alpha.caseId}/cancel`), `cancel ${alpha.caseId}`);
    const signer = { firstName: 'Eve', lastName: 'Beta', email: 'eve@beta.example', soloSigneePermitted: true };
    forbiddenCase(
      await beta.api.post(`/api/financing-cases/${alpha.caseId}/start-esignature`, { authorizedPersons: [signer] }),
      `start-esignature ${alpha.caseId}`,
    );
    forbiddenCase(
      await beta.api.post(`/api/financing-cases/${alpha.caseId}/start-esignature`, { authorizedPersons: [] }),
      `start-esignature (invalid) ${alpha.caseId}`,
    );
    for (const body of [{ contractNumber: 'BETA-STOLEN-1' }, { contractNumber: '' }]) {
      const response = await beta.api.patch(`/api/contracts/${alpha.contractId}/edit-contract-number`, body);
      expectForbidden(response, `edit-contract-number ${alpha.contractId}`, 'contract.forbidden', 'The contract belongs to another partner.');
    }
  });

  it("when B drives A's case through the sandbox, then 403 for every decision and scenario", async () => {
    const forbiddenCase = (response: ApiResponse, what: string) =>
      expectForbidden(response, what, 'financing_case.forbidden', 'The financing case belongs to another partner.');
    forbiddenCase(
      await beta.api.post(`/api/sandbox/financing_cases/${alpha.caseId}/finance-decision`, { decision: 'rejected' }),
      `finance-decision ${alpha.caseId}`,
    );
    const scenarios: [string, unknown?][] = [
      ['finance_rejected', { rejectionReason: 'Beta was here' }],
      ['canceled'],
      ['signed'],
      ['completed'],
      ['signature_declined'],
      ['reset', { targetStatus: 'finance_review' }],
      ['information_requested', { question: 'Beta?' }],
      ['document_rejected', { documentId: alpha.documentId }],
      ['upload_rejected_type', { documentId: alpha.items.document }],
      ['no_such_scenario'],
    ];
    for (const [scenario, data] of scenarios) {
      forbiddenCase(
        await beta.api.post(`/api/sandbox/financing_cases/${alpha.caseId}/simulate`, data === undefined ? { scenario } : { scenario, data }),
        `simulate ${scenario} ${alpha.caseId}`,
      );
    }
  });

  it("when B lists, uploads to, reads, downloads or deletes A's documents, then 403 (405 for delete, which is off for everyone)", async () => {
    const forbiddenCase = (response: ApiResponse, what: string) =>
      expectForbidden(response, what, 'financing_case.forbidden', 'The financing case belongs to another partner.');
    forbiddenCase(await beta.api.get(`/api/financing-cases/${alpha.caseId}/documents`), `list documents ${alpha.caseId}`);
    forbiddenCase(await upload(beta.api, alpha.caseId, { file: { bytes: sampleFile('pdf'), name: 'beta.pdf' }, category: 'other' }), `upload ${alpha.caseId}`);
    forbiddenCase(
      await upload(beta.api, alpha.caseId, {
        file: { bytes: sampleFile('pdf'), name: 'beta.pdf' },
        category: 'other',
        requestedDocumentId: alpha.items.document,
      }),
      `upload for request ${alpha.caseId}`,
    );

    expectForbidden(
      await beta.api.get(`/api/documents/${alpha.documentId}`),
      `GET document ${alpha.documentId}`,
      'document.forbidden',
      'The document belongs to another partner.',
    );
    const fetched = await download(sharedStack(), beta.partner.key, `/api/documents/${alpha.documentId}/download`);
    expectForbidden(asResponse(fetched), `download ${alpha.documentId}`, 'document.forbidden', 'The document belongs to another partner.');
    expect(fetched.bytes.includes(alpha.documentBytes.subarray(16, 48))).toBe(false);

    const deleted = await beta.api.delete(`/api/documents/${alpha.documentId}`);
    const ownDelete = await alpha.api.delete(`/api/documents/${alpha.documentId}`);
    expect([deleted.status, deleted.contentType, deleted.headers.get('allow')]).toEqual([405, PROBLEM, 'GET, HEAD']);
    // The same answer as to the owner, but for the request id each names as its instance.
    expect(swapId(deleted.text, deleted.headers.get('x-request-id')!, ownDelete.headers.get('x-request-id')!)).toBe(ownDelete.text);
    expectNoTrace(deleted, `DELETE document ${alpha.documentId}`);
  });

  it("when B lists, answers, declines or downloads A's document requests, then 403, whatever the item", async () => {
    const forbiddenCase = (response: ApiResponse, what: string) =>
      expectForbidden(response, what, 'financing_case.forbidden', 'The financing case belongs to another partner.');
    const base = `/api/financing-cases/${alpha.caseId}/document-requests`;
    forbiddenCase(await beta.api.get(base), `list requests ${alpha.caseId}`);
    forbiddenCase(
      await beta.api.post(`${base}/information/${alpha.items.information}/respond`, { response: 'Beta answers' }),
      `respond ${alpha.items.information}`,
    );
    forbiddenCase(await beta.api.post(`${base}/information/${UNKNOWN_INTEGER}/respond`, { response: 'Beta answers' }), 'respond unknown item');
    forbiddenCase(await beta.api.post(`${base}/document/${alpha.items.document}/not-available`), `not-available ${alpha.items.document}`);
    const template = await download(sharedStack(), beta.partner.key, `${base}/fill-and-return-templates/${alpha.items.fillAndReturn}/download`);
    forbiddenCase(asResponse(template), `template ${alpha.items.fillAndReturn}`);
  });

  it("when B uses A's item and document ids on its own case, then they are unknown there (404), and the sandbox refuses them as for ids that do not exist", async () => {
    const base = `/api/financing-cases/${beta.caseId}/document-requests`;
    await expectUnknown(
      (id) => beta.api.post(`${base}/information/${id}/respond`, { response: 'x' }),
      String(alpha.items.information),
      UNKNOWN_INTEGER,
      "respond via B's case",
      'document_request.not_found',
    );
    await expectUnknown(
      (id) => beta.api.post(`${base}/document/${id}/not-available`),
      String(alpha.items.document),
      UNKNOWN_INTEGER,
      "not-available via B's case",
      'document_request.not_found',
    );
    await expectUnknown(
      (id) => download(sharedStack(), beta.partner.key, `${base}/fill-and-return-templates/${id}/download`).then(asResponse),
      String(alpha.items.fillAndReturn),
      UNKNOWN_INTEGER,
      "template via B's case",
      'document_request.not_found',
    );
    await expectUnknown(
      (id) => upload(beta.api, beta.caseId, { file: { bytes: sampleFile('pdf'), name: 'b.pdf' }, category: 'other', requestedDocumentId: id }),
      String(alpha.items.document),
      UNKNOWN_INTEGER,
      "upload for A's request",
      'document_request.not_found',
    );

    const simulate = (scenario: string) => (id: string) =>
      beta.api.post(`/api/sandbox/financing_cases/${beta.caseId}/simulate`, { scenario, data: { documentId: Number(id) } });
    await expectUnknown(simulate('document_rejected'), String(alpha.documentId), UNKNOWN_INTEGER, "document_rejected of A's document", 'document.not_found');
    const foreignItem = await simulate('upload_rejected_type')(String(alpha.items.document));
    const unknownItem = await simulate('upload_rejected_type')(UNKNOWN_INTEGER);
    expect([foreignItem.status, foreignItem.contentType]).toEqual([422, PROBLEM]);
    expect(problemWithIdSwapped(foreignItem, unknownItem, String(alpha.items.document), UNKNOWN_INTEGER)).toEqual(unknownItem.json);
    expectNoTrace(foreignItem, "upload_rejected_type of A's item");
  });

  it("when B reads, pauses or deletes A's webhook endpoint or lists its deliveries, then 403 as the endpoint table lists it", async () => {
    const endpoint = `/api/webhook_endpoints/${alpha.endpointId}`;
    const forbiddenEndpoint = (response: ApiResponse, what: string) =>
      expectForbidden(response, what, 'webhook_endpoint.forbidden', 'The webhook endpoint belongs to another partner.');
    forbiddenEndpoint(await beta.api.get(endpoint), 'GET endpoint');
    forbiddenEndpoint(await beta.api.patch(endpoint, { active: false }), 'PATCH endpoint');
    forbiddenEndpoint(await beta.api.get(`${endpoint}/deliveries`), 'GET deliveries');
    forbiddenEndpoint(await beta.api.delete(endpoint), 'DELETE endpoint');
    // Registering A's URL is B's own business (URLs are unique per partner); it gives B nothing of A.
    const registered = await beta.api.post('/api/webhook_endpoints', { url: `${alphaReceiver.url}/alpha-${tag}` });
    expect(registered.status).toBe(201);
    expect(registered.json.id).not.toBe(alpha.endpointId);
    expect(registered.json.secret).not.toBe(alpha.endpointSecret);
    expect((await beta.api.delete(`/api/webhook_endpoints/${registered.json.id}`)).status).toBe(204);
    expect((await alpha.api.get(endpoint)).json.active).toBe(true);
  });

  it("when B lists its collections, then none of A's items is there, on any page", async () => {
    for (const path of ['/api/financing_cases', '/api/quote_requests', '/api/webhook_endpoints']) {
      for (let page = 1; page <= 50; page += 1) {
        const response = await beta.api.get(`${path}?page=${page}`);
        expect([path, response.status]).toEqual([path, 200]);
        expectNoTrace(response, `${path}?page=${page}`);
        expect(response.json.some((entry: { id: unknown }) => entry.id === alpha.quoteRequestId)).toBe(false);
        if (response.json.length < 30) break;
      }
    }
    expect((await beta.api.get('/api/financing_cases')).json.map((entry: { id: string }) => entry.id)).toEqual([beta.caseId]);
  });

  it("when A's cases changed, then B's endpoint received none of A's events, only its own", async () => {
    const alphaEvents = await outboxOfPartner(sharedStack().databaseUrl, alpha.partner.id);
    expect(alphaEvents.length).toBeGreaterThanOrEqual(5);
    const betaIds = (await outboxOfPartner(sharedStack().databaseUrl, beta.partner.id)).map((event) => event.id);
    await waitFor(() => (new Set(beta.receiver.requests.map((request) => request.headers['webhook-id'])).size >= betaIds.length ? true : undefined), {
      what: "B's own events",
    });
    const received = beta.receiver.bodies<{ id: string; data: { financingCaseId: string } }>();
    const alphaIds = new Set(alphaEvents.map((event) => event.id));
    const alphaCases = new Set(alphaEvents.map((event) => event.data.financingCaseId));
    expect(received.filter((event) => alphaIds.has(event.id) || alphaCases.has(event.data.financingCaseId))).toEqual([]);
    expect(new Set(received.map((event) => event.id))).toEqual(new Set(betaIds));
  });
});

function asResponse(fetched: { status: number; headers: Headers; bytes: Buffer }): ApiResponse {
  const text = fetched.bytes.toString('utf8');
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: fetched.status, headers: fetched.headers, contentType: fetched.headers.get('content-type') ?? '', text, json };
}
