import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  ApiClient,
  ApiResponse,
  RequestOptions,
  TestPartner,
  WebhookReceiver,
  createTestPartner,
  waitFor,
  sampleCustomer as customer,
  sampleRequester,
} from '@rental/testkit';
import { apiAs, sharedStack } from '../support/shared-stack';
import type { DescribedOperation, ListeningProcess, PrismViolation } from './support/prism';
import { describedOperations, operationOf, startExtraGateway, startPrismProxy, violationsOf } from './support/prism';

// Every operation of the served API description, called through Prism's validation proxy with
// real requests (happy paths and the main error statuses): no response may differ from the
// description (status, body fields, content type, required headers).

type Description = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> } & Record<string, unknown>;

interface Exchange {
  operation: string;
  call: string;
  status: number;
  violations: PrismViolation[];
}

const UNKNOWN_ULID = '01JZZZZZZZZZZZZZZZZZZZZZZZ';
const UNKNOWN_INTEGER = 2_147_483_000;
const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

let directory: string;
let description: Description;
let operations: DescribedOperation[];
let prism: ListeningProcess;
let limitedGateway: ListeningProcess;
let limitedPrism: ListeningProcess;
let alteredPrism: ListeningProcess;
let cartStatuses: string[];
let owner: TestPartner;
let stranger: TestPartner;
let hook: WebhookReceiver;
const exchanges: Exchange[] = [];

/**
 * A copy of the description with three mistakes: a documented status removed, a body field
 * removed from a schema, and a content type changed.
 */
function alteredCopy(original: Description): any {
  const copy = JSON.parse(JSON.stringify(original)) as any;
  delete copy.paths['/api/carts/{id}'].get.responses['404'];
  const sector = copy.paths['/api/product-sectors'].get.responses['200'].content['application/json'].schema.items;
  delete sector.properties.label;
  sector.required = sector.required.filter((name: string) => name !== 'label');
  const estimate = copy.paths['/api/calculate/estimate'].post.responses['201'];
  estimate.content = { 'application/xml': estimate.content['application/json'] };
  return copy;
}

/**
 * A second gateway on the shared stack behind its own proxy: two requests per key, bodies up to
 * 1 KB, and the documents service at an address where nothing listens.
 */
async function startLimitedGateway(specFile: string): Promise<void> {
  limitedGateway = await startExtraGateway(sharedStack(), {
    RATE_LIMIT_KEY_PER_SECOND: '0.01',
    RATE_LIMIT_KEY_BURST: '2',
    RATE_LIMIT_ADDRESS_PER_SECOND: '0',
    MAX_BODY_BYTES: '1024',
    DOCUMENTS_HTTP_URL: 'http://127.0.0.1:9',
  });
  limitedPrism = await startPrismProxy(specFile, limitedGateway.url);
}

beforeAll(async () => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'prism-validation-'));
  const served = await apiAs().get<Description>('/api/docs.json');
  expect(served.status).toBe(200);
  description = served.json;
  operations = describedOperations(description);
  const specFile = path.join(directory, 'openapi.json');
  fs.writeFileSync(specFile, JSON.stringify(description));
  const altered = alteredCopy(description);
  cartStatuses = Object.keys(altered.paths['/api/carts/{id}'].get.responses);
  fs.writeFileSync(path.join(directory, 'altered.json'), JSON.stringify(altered));
  [prism, alteredPrism, owner, stranger, hook] = await Promise.all([
    startPrismProxy(specFile, sharedStack().gatewayUrl),
    startPrismProxy(path.join(directory, 'altered.json'), sharedStack().gatewayUrl),
    createTestPartner(sharedStack(), { like: 'acme' }),
    createTestPartner(sharedStack(), { like: 'acme' }),
    WebhookReceiver.start(),
    startLimitedGateway(specFile),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([prism?.stop(), alteredPrism?.stop(), limitedPrism?.stop(), hook?.close()]);
  await limitedGateway?.stop();
  fs.rmSync(directory, { recursive: true, force: true });
});

interface Call extends RequestOptions {
  /** Key to send: the owner's api_user key unless told (null: none). */
  as?: string | null;
  contentType?: string;
}

/**
 * Sends one request through Prism, checks the exact status (and content type), records the
 * exchange and fails on any response violation. A request the API accepted (2xx) must also be
 * valid against the description; error cases send invalid requests on purpose.
 */
async function send(method: string, requestPath: string, status: number, call: Call = {}): Promise<ApiResponse> {
  const { as, contentType, ...options } = call;
  const client = new ApiClient(prism.url, as === undefined ? owner.key : (as ?? undefined));
  const response = await client.request(method, requestPath, options);
  const violations = violationsOf(response.headers);
  const operation = operationOf(operations, method, requestPath);
  const label = `${method} ${requestPath}`;
  exchanges.push({ operation: operation?.key ?? `(none) ${label}`, call: label, status: response.status, violations });
  expect({ call: label, status: response.status, ...(response.status === status ? {} : { body: response.text.slice(0, 1000) }) }).toEqual({
    call: label,
    status,
  });
  const expectedType = contentType ?? (status === 204 ? '' : status >= 400 ? PROBLEM_TYPE : JSON_TYPE);
  expect([label, response.contentType]).toEqual([label, expectedType]);
  const relevant = violations.filter((violation) => violation.location[0] === 'response' || status < 400 || violation.message === 'Selected route not found');
  expect([label, relevant]).toEqual([label, []]);
  return response;
}

const get = (requestPath: string, status: number, call?: Call) => send('GET', requestPath, status, call);
const post = (requestPath: string, body: unknown, status: number, call: Call = {}) => send('POST', requestPath, status, { ...call, body });
const put = (requestPath: string, body: unknown, status: number, call: Call = {}) => send('PUT', requestPath, status, { ...call, body });
const patch = (requestPath: string, body: unknown, status: number, call: Call = {}) => send('PATCH', requestPath, status, { ...call, body });
const del = (requestPath: string, status: number, call?: Call) => send('DELETE', requestPath, status, call);

const leasing36 = { durations: [36], calculationTypes: ['leasing'], acquisitionCost: 1000, productSector: 'IT_AND_OFFICE_EQUIPMENT' };
const laptop = { productNumber: 'LAPTOP-1', productName: 'Laptop', productSku: 'SKU-1', quantity: 1, price: 1000, categorySlug: 'laptops' };
const ultrasound = { productNumber: 'US-9', quantity: 1, price: 20000, categorySlug: 'ultrasound-devices' };
const leasingCheckout = { duration: 36, financingType: 'leasing', customer };
const signers = {
  authorizedPersons: [
    { firstName: 'Anna', lastName: 'Berg', email: 'anna.berg@customer.example' },
    { firstName: 'Ben', lastName: 'Kurz', email: 'ben.kurz@customer.example' },
  ],
};
const pdf = Buffer.from(`%PDF-1.4\n${'% a plain ASCII body, so it passes the proxy unchanged\n'.repeat(20)}%%EOF\n`);

function uploadForm(category: string, file: Buffer, extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append('category', category);
  for (const [name, value] of Object.entries(extra)) form.append(name, value);
  form.append('file', new Blob([file], { type: 'application/pdf' }), 'offer.pdf');
  return form;
}

/**
 * A case of the owner checked out through the API (quote in finance_review unless submitFinancing
 * is false); the quote-only checkout goes without Idempotency-Key, the deprecated form.
 */
async function checkedOutCase(submitFinancing = true): Promise<{ caseId: string; quoteId: string }> {
  const cart = await post('/api/carts', { items: [laptop] }, 201);
  const checkout = await post(
    `/api/carts/${cart.json.cartId}/checkout`,
    { ...leasingCheckout, submitFinancing },
    201,
    submitFinancing ? { headers: { 'Idempotency-Key': randomUUID() } } : {},
  );
  return { caseId: checkout.json.financeCaseId, quoteId: checkout.json.quoteId };
}

const state: {
  calculationUri?: string;
  cartId?: string;
  caseId?: string;
  quoteId?: string;
  contractId?: string;
  endpointId?: string;
} = {};

describe('every operation through the Prism validation proxy', () => {
  it('when the API description and the reference page are fetched, then both match their description', async () => {
    await get('/api/docs.json', 200, { as: null });
    await get('/api/docs', 200, { as: null, contentType: 'text/html; charset=utf-8' });
  });

  it('when a webhook endpoint is registered, read, paused and resumed, then every answer matches', async () => {
    const created = await post('/api/webhook_endpoints', { url: `${hook.url}/prism` }, 201);
    state.endpointId = created.json.id;
    await post('/api/webhook_endpoints', { url: `${hook.url}/prism` }, 409);
    await post('/api/webhook_endpoints', { url: 'ftp://example.com/hook' }, 422);
    await post('/api/webhook_endpoints', { url: `${hook.url}/other`, secret: 'mine' }, 422);
    await post('/api/webhook_endpoints', { url: `${hook.url}/other` }, 401, { as: null });
    await get('/api/webhook_endpoints', 200);
    await get('/api/webhook_endpoints?page=0', 400);
    await get(`/api/webhook_endpoints/${state.endpointId}`, 200);
    await get(`/api/webhook_endpoints/${state.endpointId}`, 403, { as: stranger.key });
    await get(`/api/webhook_endpoints/${UNKNOWN_ULID}`, 404);
    await patch(`/api/webhook_endpoints/${state.endpointId}`, { active: false }, 200);
    await patch(`/api/webhook_endpoints/${state.endpointId}`, { active: 'no' }, 422);
    await patch(`/api/webhook_endpoints/${UNKNOWN_ULID}`, { active: true }, 404);
    await patch(`/api/webhook_endpoints/${state.endpointId}`, { active: true }, 200);
  });

  it('when catalogs are read, then every answer matches', async () => {
    await get('/api/product-sectors', 200);
    await get('/api/product-sectors?page=0', 400);
    await get('/api/product-sectors', 401, { as: null });
    await get('/api/product-categories', 200);
    await get('/api/product-categories?page=abc', 400);
    await get('/api/sla-files', 200);
    await get('/api/sla-files?page=1.5', 400);
  });

  it('when offers are calculated, estimated and read, then every answer matches, the sandbox failure included', async () => {
    const calculation = await post('/api/calculate', leasing36, 201);
    state.calculationUri = calculation.json.uri;
    await post('/api/calculate', { ...leasing36, durations: [72] }, 422);
    await post('/api/calculate', { ...leasing36, productSector: 'NO_SUCH_SECTOR' }, 422);
    await post('/api/calculate', { ...leasing36, sandboxScenario: 'calculation_not_possible' }, 500);
    await post('/api/calculate/estimate', leasing36, 201);
    await post('/api/calculate/estimate', { calculationTypes: ['leasing'] }, 422);
    await post('/api/calculate/estimate', { ...leasing36, sandboxScenario: 'calculation_not_possible' }, 500);
    await post('/api/calculate/estimate/bulk', { items: [leasing36, { ...leasing36, durations: [72] }] }, 200);
    await post('/api/calculate/estimate/bulk', { items: [leasing36] }, 422);
    await get(state.calculationUri as string, 200);
    await get(state.calculationUri as string, 404, { as: stranger.key });
    await get(`/api/calculations/${UNKNOWN_ULID}`, 404);
  });

  it('when carts are created, read, replaced and checked out, then every answer matches', async () => {
    const cart = await post('/api/carts', { items: [laptop] }, 201);
    state.cartId = cart.json.cartId;
    const cartPath = `/api/carts/${state.cartId}`;
    await post('/api/carts', { items: [laptop, ultrasound] }, 422);
    await post('/api/carts', { items: [laptop], padding: 'x'.repeat(1_100_000) }, 413);
    await get(cartPath, 200);
    await get(`/api/carts/${UNKNOWN_ULID}`, 404);
    await put(cartPath, { items: [{ ...laptop, quantity: 2 }] }, 200);
    await put(cartPath, { items: [laptop, ultrasound] }, 422);
    await put(`/api/carts/${UNKNOWN_ULID}`, { items: [laptop] }, 404);
    await post(`/api/carts/${UNKNOWN_ULID}/checkout`, leasingCheckout, 404);
    await post(`${cartPath}/checkout`, leasingCheckout, 403, { as: stranger.key });
    await post(`${cartPath}/checkout`, { financingType: 'leasing', customer }, 422);
    await post(`${cartPath}/checkout`, { ...leasingCheckout, duration: 60 }, 400);
    await post(`${cartPath}/checkout`, { ...leasingCheckout, submitFinancing: 'yes' }, 400);
    const idempotencyKey = randomUUID();
    const checkout = await post(`${cartPath}/checkout`, leasingCheckout, 201, { headers: { 'Idempotency-Key': idempotencyKey } });
    state.caseId = checkout.json.financeCaseId;
    state.quoteId = checkout.json.quoteId;
    await post(`${cartPath}/checkout`, leasingCheckout, 201, { headers: { 'Idempotency-Key': idempotencyKey } });
    await post(`${cartPath}/checkout`, leasingCheckout, 409, { headers: { 'Idempotency-Key': randomUUID() } });
    await post(`${cartPath}/checkout`, leasingCheckout, 409);
    await get(cartPath, 200);
  });

  it('when quote requests are filed and read, then every answer matches', async () => {
    const created = await post(
      '/api/quote_requests',
      // The request without a phone number: it is optional.
      { ...sampleRequester, phone: undefined, calculation: state.calculationUri },
      201,
    );
    await post('/api/quote_requests', { firstName: 'Max', calculation: state.calculationUri }, 422);
    await get('/api/quote_requests', 200);
    await get('/api/quote_requests?page=0', 400);
    await get(`/api/quote_requests/${created.json.id}`, 200);
    await get(`/api/quote_requests/${created.json.id}`, 404, { as: stranger.key });
    await get(`/api/quote_requests/${UNKNOWN_INTEGER}`, 404);
  });

  it('when financing cases and quotes are read and the lender decides in the sandbox, then every answer matches', async () => {
    const caseId = state.caseId as string;
    await get('/api/financing_cases', 200);
    await get('/api/financing_cases?page=0', 400);
    await get(`/api/financing_cases/${caseId}`, 200);
    await get(`/api/financing_cases/${caseId}`, 404, { as: stranger.key });
    await get(`/api/financing_cases/${UNKNOWN_ULID}`, 404);
    await get(`/api/quotes/${state.quoteId}`, 200);
    await get(`/api/quotes/${UNKNOWN_ULID}`, 404);
    const decision = `/api/sandbox/financing_cases/${caseId}/finance-decision`;
    await post(decision, { decision: 'accepted' }, 403, { as: owner.readOnlyKey });
    await post(decision, { decision: 'accepted' }, 403, { as: stranger.key });
    await post(`/api/sandbox/financing_cases/${UNKNOWN_ULID}/finance-decision`, { decision: 'accepted' }, 404);
    await post(decision, { decision: 'maybe' }, 422);
    await post(decision, { decision: 'accepted' }, 204);
    await post(decision, { decision: 'accepted' }, 422);
    await get(`/api/financing_cases/${caseId}`, 200);
    await get(`/api/quotes/${state.quoteId}`, 200);
  });

  it('when the e-signature starts and the contract is read and numbered, then every answer matches', async () => {
    const caseId = state.caseId as string;
    const start = `/api/financing-cases/${caseId}/start-esignature`;
    await post(start, signers, 403, { as: stranger.key });
    await post(`/api/financing-cases/${UNKNOWN_ULID}/start-esignature`, signers, 404);
    await post(start, { authorizedPersons: [{ firstName: 'Info', lastName: 'Desk', email: 'info@customer.example' }, signers.authorizedPersons[0]] }, 422);
    await post(start, { authorizedPersons: 'Anna' }, 422);
    const started = await post(start, signers, 200);
    state.contractId = started.json.contractId;
    const contract = `/api/contracts/${state.contractId}`;
    await get(contract, 200);
    await get(contract, 404, { as: stranger.key });
    await get(`/api/contracts/${UNKNOWN_ULID}`, 404);
    await patch(`${contract}/edit-contract-number`, { contractNumber: `C-${Date.now()}` }, 200);
    await patch(`${contract}/edit-contract-number`, { contractNumber: 'not allowed!' }, 422);
    await patch(`${contract}/edit-contract-number`, { contractNumber: 'C-1' }, 403, { as: stranger.key });
    await patch(`/api/contracts/${UNKNOWN_ULID}/edit-contract-number`, { contractNumber: 'C-1' }, 404);
    await get(contract, 200);
  });

  it('when the sandbox raises requests and the partner answers, uploads and downloads, then every answer matches', async () => {
    const { caseId } = await checkedOutCase();
    const simulate = `/api/sandbox/financing_cases/${caseId}/simulate`;
    const requests = `/api/financing-cases/${caseId}/document-requests`;
    await post(simulate, { scenario: 'information_requested', data: { question: 'How many employees?' } }, 204);
    await post(
      simulate,
      {
        scenario: 'requested_document',
        data: {
          items: [
            { label: 'Offer', category: 'purchase_offer', optional: true },
            { label: 'Register', category: 'business_registration' },
          ],
        },
      },
      204,
    );
    await post(simulate, { scenario: 'requested_fill_and_return', data: { label: 'Self disclosure', category: 'self_disclosure_template' } }, 204);
    await post(simulate, { scenario: 'no_such_scenario' }, 422);
    await post(simulate, { scenario: 'requested_document', data: { label: 'Contract', category: 'signed_contract' } }, 422);
    await post(simulate, { scenario: 'finance_review' }, 403, { as: stranger.key });
    await post(`/api/sandbox/financing_cases/${UNKNOWN_ULID}/simulate`, { scenario: 'finance_review' }, 404);

    const listed = await get(requests, 200);
    await get(`${requests}?page=0`, 400);
    await get(requests, 403, { as: stranger.key });
    await get(`/api/financing-cases/${UNKNOWN_ULID}/document-requests`, 404);
    const items = listed.json as { id: number; type: string; optional: boolean }[];
    const information = items.find((item) => item.type === 'information');
    const optionalDocument = items.find((item) => item.type === 'document' && item.optional);
    const requiredDocument = items.find((item) => item.type === 'document' && !item.optional);
    const form = items.find((item) => item.type === 'fill_and_return');
    expect([information, optionalDocument, requiredDocument, form].every(Boolean)).toBe(true);

    await post(simulate, { scenario: 'upload_rejected_type', data: { documentId: requiredDocument?.id } }, 400);
    await post(simulate, { scenario: 'upload_rejected_size', data: { documentId: UNKNOWN_INTEGER } }, 422);

    const template = `${requests}/fill-and-return-templates/${form?.id}/download`;
    await get(template, 200, { contentType: 'application/pdf' });
    await get(template, 403, { as: stranger.key });
    await get(`${requests}/fill-and-return-templates/${UNKNOWN_INTEGER}/download`, 404);

    const respond = `${requests}/information/${information?.id}/respond`;
    await post(respond, {}, 400);
    await post(respond, { response: 'Twelve' }, 403, { as: stranger.key });
    await post(`${requests}/information/${UNKNOWN_INTEGER}/respond`, { response: 'Twelve' }, 404);
    await post(respond, { response: 'Twelve' }, 200);
    await post(respond, { response: 'Thirteen' }, 422);

    await post(`${requests}/document/${requiredDocument?.id}/not-available`, undefined, 422);
    await post(`${requests}/information/${optionalDocument?.id}/not-available`, undefined, 404);
    await post(`${requests}/document/${optionalDocument?.id}/not-available`, undefined, 403, { as: stranger.key });
    await post(`${requests}/document/${optionalDocument?.id}/not-available`, undefined, 200);

    const documents = `/api/financing-cases/${caseId}/documents`;
    const uploaded = await send('POST', documents, 201, {
      rawBody: uploadForm('business_registration', pdf, { description: 'Register extract', requestedDocumentId: String(requiredDocument?.id) }),
    });
    await send('POST', documents, 422, { rawBody: uploadForm('business_registration', Buffer.from('just text, not a PDF\n')) });
    await send('POST', documents, 422, { rawBody: uploadForm('no_such_category', pdf) });
    await post(documents, { category: 'business_registration' }, 400);
    await send('POST', documents, 403, { as: stranger.key, rawBody: uploadForm('business_registration', pdf) });
    await send('POST', `/api/financing-cases/${UNKNOWN_ULID}/documents`, 404, { rawBody: uploadForm('business_registration', pdf) });

    await get(documents, 200);
    await get(`${documents}?page=0`, 400);
    await get(documents, 403, { as: stranger.key });
    await get(`/api/financing-cases/${UNKNOWN_ULID}/documents`, 404);
    const document = `/api/documents/${uploaded.json.id}`;
    await get(document, 200);
    await get(document, 403, { as: stranger.key });
    await get(`/api/documents/${UNKNOWN_INTEGER}`, 404);
    await get(`${document}/download`, 200, { contentType: 'application/pdf' });
    await get(`${document}/download`, 403, { as: stranger.key });
    await get(`/api/documents/${UNKNOWN_INTEGER}/download`, 404);
    await del(document, 405);
    await del(document, 401, { as: null });
  });

  it('when the sandbox signs the contract, then the signed contract is listed and downloadable as described', async () => {
    const caseId = state.caseId as string;
    await post(`/api/sandbox/financing_cases/${caseId}/simulate`, { scenario: 'signed' }, 204);
    await get(`/api/contracts/${state.contractId}`, 200);
    const listed = await get(`/api/financing-cases/${caseId}/documents`, 200);
    const signed = (listed.json as { id: number; category: string }[]).find((entry) => entry.category === 'signed_contract');
    expect(signed).toBeDefined();
    await get(`/api/documents/${signed?.id}`, 200);
    await get(`/api/documents/${signed?.id}/download`, 200, { contentType: 'application/pdf' });
  });

  it('when cases are canceled, then every answer matches', async () => {
    const open = await checkedOutCase();
    const draft = await checkedOutCase(false);
    const cancel = (caseId: string) => `/api/financing_cases/${caseId}/cancel`;
    await post(cancel(open.caseId), undefined, 403, { as: owner.readOnlyKey });
    await post(cancel(open.caseId), undefined, 403, { as: stranger.key });
    await post(cancel(UNKNOWN_ULID), undefined, 404);
    await post(cancel(draft.caseId), undefined, 422);
    await post(cancel(open.caseId), undefined, 204);
    await post(cancel(open.caseId), undefined, 422);
    await post(cancel(state.caseId as string), undefined, 422);
  });

  it('when deliveries of the endpoint are listed and it is deleted, then every answer matches', async () => {
    const endpoint = `/api/webhook_endpoints/${state.endpointId}`;
    const direct = new ApiClient(sharedStack().gatewayUrl, owner.key);
    // The status changes above were delivered to the receiver; wait until one is recorded as succeeded.
    await waitFor(
      async () => {
        const deliveries = (await direct.get(`${endpoint}/deliveries`)).json as { status: string }[];
        return deliveries.some((delivery) => delivery.status === 'succeeded') ? true : undefined;
      },
      { timeoutMs: 20_000, what: 'a succeeded delivery' },
    );
    await get(`${endpoint}/deliveries`, 200);
    await get(`${endpoint}/deliveries?page=0`, 400);
    await get(`${endpoint}/deliveries`, 403, { as: stranger.key });
    await get(`/api/webhook_endpoints/${UNKNOWN_ULID}/deliveries`, 404);
    const deliveries = (await direct.get(`${endpoint}/deliveries`)).json as { eventId: string; status: string }[];
    const succeeded = deliveries.find((delivery) => delivery.status === 'succeeded') as { eventId: string };
    await post(`${endpoint}/deliveries/${succeeded.eventId}/redeliver`, undefined, 202);
    await post(`${endpoint}/deliveries/no-such-event/redeliver`, undefined, 404);
    await post(`${endpoint}/deliveries/redeliver`, { since: '2026-01-01T00:00:00Z' }, 202);
    await post(`${endpoint}/deliveries/redeliver`, { since: 'yesterday' }, 422);
    await post(`${endpoint}/test-event`, undefined, 202);
    await post(`/api/webhook_endpoints/${UNKNOWN_ULID}/test-event`, undefined, 404);
    await post(`${endpoint}/rotate-secret`, { overlapSeconds: 60 }, 200);
    await post(`${endpoint}/rotate-secret`, undefined, 200);
    await post(`${endpoint}/rotate-secret`, { overlapSeconds: -1 }, 422);
    await del(endpoint, 403, { as: stranger.key });
    await del(endpoint, 204);
    await del(endpoint, 404);
  });

  it('when a quote is sent to its customer, then every answer matches', async () => {
    const draft = await checkedOutCase(false);
    const send = (caseId: string) => `/api/financing_cases/${caseId}/send-to-customer`;
    await post(send(draft.caseId), {}, 403, { as: owner.readOnlyKey });
    await post(send(draft.caseId), {}, 403, { as: stranger.key });
    await post(send(UNKNOWN_ULID), {}, 404);
    await post(send(draft.caseId), { email: 'not-an-address' }, 422);
    await post(send(draft.caseId), {}, 200);
    await post(send(draft.caseId), { email: 'buyer@customer.example' }, 200);
    const financed = await checkedOutCase();
    await post(send(financed.caseId), {}, 422);
  });

  it("when a case's clock is advanced in the sandbox, then every answer matches", async () => {
    const draft = await checkedOutCase(false);
    await post(`/api/financing_cases/${draft.caseId}/send-to-customer`, {}, 200);
    const advance = (caseId: string) => `/api/sandbox/financing_cases/${caseId}/advance-clock`;
    await post(advance(draft.caseId), { by: '15d' }, 403, { as: owner.readOnlyKey });
    await post(advance(draft.caseId), { by: '15d' }, 403, { as: stranger.key });
    await post(advance(UNKNOWN_ULID), { by: '15d' }, 404);
    await post(advance(draft.caseId), { by: '0s' }, 422);
    const advanced = await post(advance(draft.caseId), { by: '15d' }, 200);
    expect(advanced.json.applied.map((effect: { action: string }) => effect.action)).toEqual(['remind', 'remind', 'expire']);
    await post(advance(draft.caseId), { by: '1d' }, 200);
  });

  it('when the calls above are counted, then every operation of the description was exercised and no response differed from it', () => {
    const exercised = new Set(exchanges.map((exchange) => exchange.operation));
    expect(operations.map((operation) => operation.key).filter((key) => !exercised.has(key))).toEqual([]);
    expect(exchanges.filter((exchange) => exchange.operation.startsWith('(none)')).map((exchange) => exchange.call)).toEqual([]);
    expect(exchanges.filter((exchange) => exchange.violations.some((violation) => violation.location[0] === 'response'))).toEqual([]);
    expect(operations.length).toBeGreaterThanOrEqual(40);
  });
});

describe('answers the gateway gives by itself, through the Prism validation proxy', () => {
  const through = async (key: string, method: string, requestPath: string, body?: unknown) => {
    const response = await new ApiClient(limitedPrism.url, key).request(method, requestPath, body === undefined ? {} : { body });
    return {
      status: response.status,
      contentType: response.contentType,
      retryAfter: response.headers.get('retry-after'),
      violations: violationsOf(response.headers),
    };
  };

  it('when a key exceeds its rate limit, then 429 with Retry-After, as described', async () => {
    expect((await through(owner.key, 'GET', '/api/product-sectors')).status).toBe(200);
    expect((await through(owner.key, 'GET', '/api/product-sectors')).status).toBe(200);
    expect(await through(owner.key, 'POST', '/api/calculate/estimate', leasing36)).toEqual({
      status: 429,
      contentType: PROBLEM_TYPE,
      retryAfter: expect.stringMatching(/^\d+$/),
      violations: [],
    });
  });

  it('when the body is larger than the gateway accepts, then 413, as described', async () => {
    expect(await through(owner.readOnlyKey, 'POST', `/api/financing_cases/${UNKNOWN_ULID}/cancel`, { padding: 'x'.repeat(2000) })).toEqual({
      status: 413,
      contentType: PROBLEM_TYPE,
      retryAfter: null,
      violations: [expect.objectContaining({ location: ['request'] })],
    });
  });

  it('when the owning service does not answer, then 503, as described (also where the service lists no 503 itself)', async () => {
    expect(await through(stranger.key, 'DELETE', '/api/documents/1')).toEqual({ status: 503, contentType: PROBLEM_TYPE, retryAfter: '1', violations: [] });
  });
});

describe('the proxy catches a response the description does not allow', () => {
  const through = (method: string, requestPath: string, body?: unknown) =>
    new ApiClient(alteredPrism.url, owner.key).request(method, requestPath, body === undefined ? {} : { body });

  it('when the gateway answers a status the copy no longer documents, then Prism reports it (as a warning, which --errors would let pass)', async () => {
    const response = await through('GET', `/api/carts/${UNKNOWN_ULID}`);
    expect(response.status).toBe(404);
    expect(violationsOf(response.headers)).toEqual([
      {
        location: ['response'],
        severity: 'Warning',
        message: `Unable to match the returned status code with those defined in the document: ${cartStatuses.join(',')}`,
      },
    ]);
  });

  it('when the body carries a field the copy does not describe, then Prism reports it at each entry of the body', async () => {
    const response = await through('GET', '/api/product-sectors');
    expect(response.status).toBe(200);
    expect(violationsOf(response.headers)).toEqual(
      (response.json as unknown[]).map((_, index) => ({
        location: ['response', 'body', String(index)],
        severity: 'Error',
        code: 'additionalProperties',
        message: `Response body property ${index} must NOT have additional properties; found 'label'`,
      })),
    );
  });

  it('when the content type differs from the copy, then Prism reports it', async () => {
    const response = await through('POST', '/api/calculate/estimate', leasing36);
    expect(response.status).toBe(201);
    expect(violationsOf(response.headers)).toEqual([
      {
        location: ['response'],
        severity: 'Error',
        message: 'The received media type "application/json; charset=utf-8" does not match the one specified in the current response: application/xml',
      },
    ]);
  });
});
