/**
 * Conformance cases of the outside audit of the specification (issue 19), one describe per
 * finding, over the real processes of the shared stack. Each case failed before its fix.
 */
import { randomUUID } from 'node:crypto';
import { brotliCompressSync } from 'node:zlib';
import { Client } from 'pg';
import { serializeError } from '@rental/logger';
import { ApiResponse, WebhookReceiver, fixturePartnerKey, waitFor } from '@rental/testkit';
import { createCaseViaGrpc } from '../support/cases';
import {
  EventListener,
  Owner,
  eventsOf,
  expectApplied,
  expectProblem,
  expectViolations,
  movesOf,
  newCase,
  newPartner,
  query,
  simulate,
} from '../case-workflow/support/kit';
import { download, insertDocument, partnerWithCase, sampleFile, upload } from '../documents/support/kit';
import { EventPublisher, registerEndpoint, requestsFor } from '../notifications/support';
import { problemTypeOf } from '../support/problems';
import { apiAs, sharedStack } from '../support/shared-stack';

const PROBLEM = 'application/problem+json; charset=utf-8';
const leasing36 = { durations: [36], calculationTypes: ['leasing'], acquisitionCost: 1000, productSector: 'IT_AND_OFFICE_EQUIPMENT' };
const customer = {
  firstName: 'Erika',
  lastName: 'Mustermann',
  email: 'erika@customer.example',
  street: 'Hauptstr.',
  houseNumber: '1',
  zipCode: '10115',
  city: 'Berlin',
  country: 'DE',
  phone: '+4930123',
  company: 'Mustermann GmbH',
  vatId: 'DE123456789',
};
const person = {
  email: 'max@customer.example',
  firstName: 'Max',
  lastName: 'Muster',
  customerType: 'company',
  street: 'Ring 1',
  postalCode: '50667',
  city: 'Köln',
  country: 'DE',
  company: 'Muster AG',
  phone: '+49221000',
  acknowledgedPrivacy: true,
};

let owner: Owner;
let stranger: Owner;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([newPartner(), newPartner()]);
});

function expectViolationAt(response: ApiResponse, status: number, propertyPath: string, code: string): void {
  expect([response.status, response.contentType]).toEqual([status, PROBLEM]);
  expect(response.json.violations).toEqual([expect.objectContaining({ propertyPath, code })]);
}

async function checkedOutCase(api = owner.api, idempotencyKey: string | undefined = randomUUID()): Promise<{ caseId: string; quoteId: string }> {
  const cart = await api.post('/api/carts', {
    items: [{ productNumber: `AUDIT-${randomUUID()}`, productName: 'Laptop', quantity: 1, price: 1000, categorySlug: 'laptops' }],
  });
  expect(cart.status).toBe(201);
  const checkout = await api.post(
    `/api/carts/${cart.json.cartId}/checkout`,
    { duration: 36, financingType: 'leasing', customer },
    idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {},
  );
  expect(checkout.status).toBe(201);
  return { caseId: checkout.json.financeCaseId, quoteId: checkout.json.quoteId };
}

async function filedQuoteRequest(api = owner.api): Promise<ApiResponse> {
  const calculation = await api.post('/api/calculate', leasing36);
  expect(calculation.status).toBe(201);
  const filed = await api.post('/api/quote_requests', { ...person, calculation: calculation.json.uri });
  expect(filed.status).toBe(201);
  return filed;
}

describe('1. a partner cannot set its own rental factor', () => {
  it.each(['0.001', '0.000', '9999999.999'])(
    "when persistedRentalFactor %s is on none of the partner's quotes or lists, then estimate and calculate answer 422 at persistedRentalFactor",
    async (factor) => {
      for (const path of ['/api/calculate/estimate', '/api/calculate']) {
        const response = await owner.api.post(path, { ...leasing36, persistedRentalFactor: factor });
        expectViolationAt(response, 422, 'persistedRentalFactor', 'calculation.validation.rental_factor_not_frozen');
      }
      const bulk = await owner.api.post('/api/calculate/estimate/bulk', { items: [leasing36, { ...leasing36, persistedRentalFactor: factor }] });
      expect(bulk.status).toBe(200);
      expect(bulk.json.results.map((result: { success: boolean }) => result.success)).toEqual([true, false]);
      expect(bulk.json.results[1].error).toEqual([
        expect.objectContaining({ propertyPath: 'persistedRentalFactor', code: 'calculation.validation.rental_factor_not_frozen' }),
      ]);
    },
  );

  it("when the factor is the live factor of the term and tier priced (issue 27: not any factor of the partner's lists), then it prices with it", async () => {
    const response = await owner.api.post('/api/calculate/estimate', { ...leasing36, commission: 3, persistedRentalFactor: '3.28' });
    expect(response.status).toBe(201);
    expect(response.json.offers).toEqual([expect.objectContaining({ rentalFactor: '3.280', rate: 35.3 })]);
  });

  it("when the factor is frozen on one of the partner's quotes, then it prices with it; for another partner the same factor is 422", async () => {
    await createCaseViaGrpc(sharedStack(), owner.partner.id, { terms: { rentalFactor: '2.997', monthlyCosts: '29.97', monthlyRateAllIn: '32.47' } });
    const own = await owner.api.post('/api/calculate/estimate', { ...leasing36, persistedRentalFactor: '2.997' });
    expect(own.status).toBe(201);
    expect(own.json.offers).toEqual([expect.objectContaining({ rentalFactor: '2.997', rate: 32.47 })]);
    expectViolationAt(
      await stranger.api.post('/api/calculate/estimate', { ...leasing36, persistedRentalFactor: '2.997' }),
      422,
      'persistedRentalFactor',
      'calculation.validation.rental_factor_not_frozen',
    );
  });

  it("when a stored calculation was priced with a factor that is not the partner's own, then a quote request on it is 422 at calculation and nothing is filed", async () => {
    const calculation = await owner.api.post('/api/calculate', leasing36);
    await query(
      `UPDATE pricing.calculations SET response = jsonb_set(jsonb_set(response, '{request,persistedRentalFactor}', '"0.001"'), '{offers,0,rentalFactor}', '"0.001"') WHERE id = $1`,
      [calculation.json.id],
    );
    const filed = await owner.api.get('/api/quote_requests');
    const response = await owner.api.post('/api/quote_requests', { ...person, calculation: calculation.json.uri });
    expectViolationAt(response, 422, 'calculation', 'quote_request.rental_factor_not_frozen');
    expect((await owner.api.get('/api/quote_requests')).json).toEqual(filed.json);
  });

  it("when margin, partner, hub override and allowed sectors are sent, then prices, owner and hub stay the platform's and another partner sees nothing", async () => {
    const plain = await owner.api.post('/api/calculate/estimate', leasing36);
    const dressed = await owner.api.post('/api/calculate', {
      ...leasing36,
      margin: -99,
      partner: `/api/partners/${stranger.partner.id}`,
      distributionHubOverride: 'hub-south',
      distributionHub: 'hub-south',
      allowedProductSectors: ['OTHERS'],
      public: true,
      active: false,
      type: 2,
      requestType: 2,
      completeAcquisitionCost: 1,
      partnerCalculation: true,
    });
    expect(dressed.status).toBe(201);
    expect(dressed.json.response.offers).toEqual(plain.json.offers);
    expect(dressed.json.partner.id).toBe(owner.partner.id);
    expect((await stranger.api.get(`/api/calculations/${dressed.json.id}`)).status).toBe(404);
    expectViolationAt(
      await owner.api.post('/api/calculate/estimate', { ...leasing36, commission: 50 }),
      422,
      'commission',
      'calculation.validation.commission_not_available',
    );
  });
});

describe('2. the two-signer rule counts persons', () => {
  const anna = { firstName: 'Anna', lastName: 'Berg', email: 'anna.berg@customer.example' };

  async function acceptedCase(): Promise<string> {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    return caseId;
  }

  it.each([
    ['the same mailbox in other case with a +tag', { firstName: 'A.', lastName: 'Berg-Sign', email: 'ANNA.BERG+sign@Customer.Example' }],
    ['the same first and last name', { firstName: ' anna', lastName: 'BERG ', email: 'a.berg@other.example' }],
  ])('when the same person is named twice (%s) without soloSigneePermitted, then 422 naming the duplicate and nothing starts', async (_how, twin) => {
    const caseId = await acceptedCase();
    const response = await owner.api.post(`/api/financing-cases/${caseId}/start-esignature`, { authorizedPersons: [anna, twin] });
    expectViolations(response, [
      ['authorizedPersons[1]', 'esignature.duplicate_person'],
      ['authorizedPersons', 'esignature.signers_insufficient'],
    ]);
    expect(response.json.violations[0].message).toBe(
      `${twin.firstName.trim()} ${twin.lastName.trim()} <${twin.email}> is the same person as authorizedPersons[0]; each signer counts once.`,
    );
    expect(await query('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId])).toEqual([]);
  });
});

describe('3. platform documents', () => {
  it('when a signed contract or signed handover confirmation is superseded, then it is left out of the list and answers 404', async () => {
    const withCase = await partnerWithCase();
    const superseded = await insertDocument(sharedStack(), withCase, { category: 'signed_contract', uploadedBy: 'system', reviewStatus: 'SUPERSEDED' });
    const supersededHandover = await insertDocument(sharedStack(), withCase, {
      category: 'handover_confirmation',
      uploadedBy: 'customer',
      signed: true,
      reviewStatus: 'SUPERSEDED',
    });
    const current = await insertDocument(sharedStack(), withCase, { category: 'signed_contract', uploadedBy: 'system' });
    const listed = await withCase.api.get(`/api/financing-cases/${withCase.caseId}/documents`);
    expect(listed.json.map((document: { id: number }) => document.id)).toEqual([current]);
    for (const hidden of [superseded, supersededHandover]) {
      const metadata = await withCase.api.get(`/api/documents/${hidden}`);
      const content = await download(sharedStack(), withCase.partner.key, `/api/documents/${hidden}/download`);
      expect([metadata.status, metadata.json.type, content.status]).toEqual([404, problemTypeOf('document.not_found'), 404]);
    }
  });

  it.each(['signed_contract', 'handover_confirmation'])(
    'when a partner uploads in the platform category %s, then 422 at category and nothing is stored',
    async (category) => {
      const withCase = await partnerWithCase();
      const response = await upload(withCase.api, withCase.caseId, { file: { bytes: sampleFile('pdf'), name: 'mine.pdf' }, category });
      expectViolationAt(response, 422, 'category', 'document.category_reserved');
      expect((await withCase.api.get(`/api/financing-cases/${withCase.caseId}/documents`)).json).toEqual([]);
    },
  );
});

describe('4. one meaning for each money field of a quote', () => {
  it('when one offer becomes a quote through checkout and through a quote request, then both quotes carry the same amounts', async () => {
    const fromCheckout = await checkedOutCase();
    const fromRequest = (await filedQuoteRequest()).json.quote as string;
    const money = (quote: Record<string, any>) => ({
      totalValue: quote.totalValue,
      monthlyCosts: quote.monthlyCosts,
      monthlyRateAllIn: quote.monthlyRateAllIn,
      rate: quote.selectedOffer.rate,
      rentalFactor: quote.rentalFactor,
    });
    const expected = { totalValue: 1000, monthlyCosts: 31.8, monthlyRateAllIn: 34.3, rate: 31.8, rentalFactor: '3.180' };
    expect(money((await owner.api.get(`/api/quotes/${fromCheckout.quoteId}`)).json)).toEqual(expected);
    expect(money((await owner.api.get(fromRequest)).json)).toEqual(expected);
  });

  it('when the API description is read, then monthlyCosts and monthlyRateAllIn say what they hold whatever created the quote', async () => {
    const quote = (await apiAs().get('/api/docs.json')).json.components.schemas.Quote.properties;
    expect(quote.monthlyCosts.description).toContain('without service cost or surcharge');
    expect(quote.monthlyRateAllIn.description).toContain("plus the rent service cost and the partner's monthly surcharge");
    for (const field of ['totalValue', 'monthlyCosts', 'monthlyRateAllIn'])
      expect(quote[field].description).toContain('One meaning whatever created the quote');
  });
});

describe("5. another partner's webhook endpoint", () => {
  it('when it is read, changed, deleted or its deliveries listed, then 403; an unknown one stays 404', async () => {
    const created = await owner.api.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/audit-403' });
    expect(created.status).toBe(201);
    const path = `/api/webhook_endpoints/${created.json.id}`;
    for (const response of [
      await stranger.api.get(path),
      await stranger.api.patch(path, { active: false }),
      await stranger.api.get(`${path}/deliveries`),
      await stranger.api.delete(path),
    ]) {
      expectProblem(response, 403, 'webhook_endpoint.forbidden');
    }
    expect((await owner.api.get(path)).json.active).toBe(true);
    expectProblem(await stranger.api.get('/api/webhook_endpoints/01J9ZZZZZZZZZZZZZZZZZZZZZZ'), 404, 'webhook_endpoint.not_found');
  });
});

describe('6. fields declared non-null', () => {
  it('when a calculation names no category, then category is an object of its sector with null category fields; with a slug it names the category', async () => {
    const bare = await owner.api.post('/api/calculate', leasing36);
    expect(bare.json.category).toEqual({ id: null, slug: null, name: null, productSector: 'IT_AND_OFFICE_EQUIPMENT' });
    expect((await owner.api.get(`/api/calculations/${bare.json.id}`)).json.category).toEqual(bare.json.category);
    const narrowed = await owner.api.post('/api/calculate', { ...leasing36, productSector: undefined, categorySlug: 'laptops' });
    expect(narrowed.json.category).toEqual({ id: expect.any(Number), slug: 'laptops', name: expect.any(String), productSector: 'IT_AND_OFFICE_EQUIPMENT' });
  });

  it('when a quote request is filed, then currentSolvencyStatus is the string not_checked', async () => {
    expect((await filedQuoteRequest()).json.currentSolvencyStatus).toBe('not_checked');
  });
});

describe('7. quote requests move through their own statuses', () => {
  let listener: EventListener;
  beforeAll(async () => {
    listener = await EventListener.start();
  });
  afterAll(() => listener.close());

  it('when a quote request is filed and its quote later canceled, then it goes new → quote_created → canceled with one event per move', async () => {
    const filed = await filedQuoteRequest();
    expect(filed.json.status).toBe('quote_created');
    const caseId = (filed.json.financingCase as string).split('/').pop() as string;
    const quoteId = (filed.json.quote as string).split('/').pop() as string;
    const created = await waitFor(() => listener.of(caseId).find((event) => event.data.resourceType === 'quote_request'), { what: 'the quote request event' });
    expect(created.data).toEqual({
      financingCaseId: caseId,
      quoteId,
      resourceType: 'quote_request',
      fromStatus: 'new',
      toStatus: 'quote_created',
      status: 'in_progress',
      transition: 'create_quote',
    });
    expect(created.partnerId).toBe(owner.partner.id);

    await expectApplied(simulate(owner, caseId, 'finance_review'));
    await expectApplied(owner.api.post(`/api/financing_cases/${caseId}/cancel`));
    const canceled = await waitFor(
      () => listener.of(caseId).find((event) => event.data.resourceType === 'quote_request' && event.data.toStatus === 'canceled'),
      { what: 'the quote request cancel event' },
    );
    expect(canceled.data).toEqual({
      financingCaseId: caseId,
      quoteId,
      resourceType: 'quote_request',
      fromStatus: 'quote_created',
      toStatus: 'canceled',
      status: 'canceled',
      transition: 'cancel',
    });
    const quoteCanceled = listener.of(caseId).find((event) => event.data.resourceType === 'quote' && event.data.toStatus === 'canceled');
    expect(Date.parse(canceled.occurredAt)).toBeGreaterThan(Date.parse(quoteCanceled!.occurredAt));
    expect((await owner.api.get(`/api/quote_requests/${filed.json.id}`)).json.status).toBe('canceled');
    expect(listener.of(caseId).filter((event) => event.data.resourceType === 'quote_request')).toHaveLength(2);
  });
});

describe('8. sandbox consistency', () => {
  it('when the quote is finance_rejected, then simulate finance_accepted is 422 as finance-decision accepted is, and nothing moves', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_rejected'));
    const before = (await eventsOf(caseId)).length;
    expectViolations(await simulate(owner, caseId, 'finance_accepted'), [['scenario', 'sandbox.transition_unreachable']]);
    expectProblem(await owner.api.post(`/api/sandbox/financing_cases/${caseId}/finance-decision`, { decision: 'accepted' }), 422);
    expect(await eventsOf(caseId)).toHaveLength(before);
  });

  it.each(['wait_for_signing', 'signed', 'completed', 'signature_sent', 'signature_signed', 'signature_declined'])(
    'when %s runs for a quote never accepted, then 422 and no contract is made',
    async (scenario) => {
      const rejected = await newCase(owner);
      await expectApplied(simulate(owner, rejected.caseId, 'finance_rejected'));
      const inReview = await newCase(owner);
      for (const caseId of [rejected.caseId, inReview.caseId]) {
        const response = await simulate(owner, caseId, scenario);
        if (scenario === 'completed') expectViolations(response, [['scenario', 'contract.number_missing']]);
        else expectViolations(response, [['scenario', 'sandbox.quote_not_accepted']]);
        expect(await query('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId])).toEqual([]);
      }
    },
  );

  it('when a reset removes the contract, then a contract event says so (toStatus removed, transition reset)', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, caseId, 'wait_for_signing'));
    const before = (await movesOf(caseId)).length;
    await expectApplied(simulate(owner, caseId, 'reset', { targetStatus: 'finance_rejected' }));
    expect((await movesOf(caseId)).slice(before)).toEqual([
      'contract:wait_for_signing>removed:reset:finance_accepted',
      'quote:finance_accepted>finance_rejected:reset:finance_rejected',
    ]);
    expect(await query('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId])).toEqual([]);
  });
});

describe('9. edge input', () => {
  it.each([
    ['a NUL character', 'Lap\u0000top'],
    ['a lone surrogate', 'Lap\ud800top'],
  ])('when a string field holds %s, then 400 problem+json naming the field, in every service', async (_what, text) => {
    const cart = await owner.api.post('/api/carts', { items: [{ productNumber: 'P-1', productName: text, quantity: 1, price: 10, categorySlug: 'laptops' }] });
    expectViolationAt(cart, 400, 'items[0].productName', 'validation.invalid_text');
    expectViolationAt(await owner.api.post('/api/calculate/estimate', { ...leasing36, categorySlug: text }), 400, 'categorySlug', 'validation.invalid_text');
    expectViolationAt(
      await owner.api.post('/api/quote_requests', { ...person, firstName: text, calculation: '/api/calculations/01J9ZZZZZZZZZZZZZZZZZZZZZZ' }),
      400,
      'firstName',
      'validation.invalid_text',
    );
    expectViolationAt(await owner.api.post('/api/webhook_endpoints', { url: `https://93.184.216.34/${text}` }), 400, 'url', 'validation.invalid_text');
    const { caseId } = await newCase(owner);
    expectViolationAt(
      await owner.api.post(`/api/financing-cases/${caseId}/start-esignature`, {
        authorizedPersons: [{ firstName: text, lastName: 'B', email: 'a@b.example' }],
      }),
      400,
      'authorizedPersons[0].firstName',
      'validation.invalid_text',
    );
  });

  it('when a multipart text part holds a NUL character, then 400 naming the part and nothing is stored', async () => {
    const withCase = await partnerWithCase();
    expectViolationAt(
      await upload(withCase.api, withCase.caseId, {
        file: { bytes: sampleFile('pdf'), name: 'a.pdf' },
        category: 'purchase_offer',
        description: 'Offer\u0000 v2',
      }),
      400,
      'description',
      'validation.invalid_text',
    );
    expect((await withCase.api.get(`/api/financing-cases/${withCase.caseId}/documents`)).json).toEqual([]);
  });

  it.each([
    ['gzip', Buffer.from('{"items":[]}')],
    ['br', Buffer.from('not brotli at all')],
    ['gzip', brotliCompressSync(Buffer.from('{"items":[]}'))],
  ])('when the body says Content-Encoding %s but its bytes are not, then 400 problem+json naming the encoding', async (encoding, bytes) => {
    const response = await fetch(`${sharedStack().gatewayUrl}/api/carts`, {
      method: 'POST',
      headers: { 'X-Api-Key': owner.partner.key, 'Content-Type': 'application/json', 'Content-Encoding': encoding },
      body: bytes,
    });
    expect([response.status, response.headers.get('content-type')]).toEqual([400, PROBLEM]);
    expect(await response.json()).toEqual(
      expect.objectContaining({
        type: problemTypeOf('request.malformed_encoding'),
        detail: `The request body is not valid ${encoding} data, as its Content-Encoding header says it is.`,
        violations: [expect.objectContaining({ propertyPath: 'Content-Encoding' })],
      }),
    );
  });

  it('when Postgres refuses a value, then the logged error keeps the SQLSTATE and drops the text that carries the value', async () => {
    const client = new Client({ connectionString: sharedStack().databaseUrl });
    await client.connect();
    const error = await client.query('SELECT $1::int', ['card-4111-1111']).catch((failure: unknown) => failure);
    await client.end();
    const logged = JSON.stringify(serializeError(error));
    expect(logged).not.toContain('card-4111-1111');
    expect(JSON.parse(logged)).toEqual(expect.objectContaining({ code: '22P02', message: 'database error 22P02' }));
  });
});

describe('10. webhook URLs', () => {
  it.each([
    ['https://[::7f00:1]/', 'webhook.url_not_public'],
    ['https://[::a9fe:a9fe]/', 'webhook.url_not_public'],
    ['https://[::a00:1]/', 'webhook.url_not_public'],
    ['https://93.184.216.34/a\nb', 'validation.format'],
    ['https://93.184.216.34/a\tb', 'validation.format'],
    ['https://93.184.216.34/\r', 'validation.format'],
  ])('when %j is registered, then 422 and nothing is stored', async (url, code) => {
    const partner = await newPartner();
    expectViolationAt(await partner.api.post('/api/webhook_endpoints', { url }), 422, 'url', code);
    expect((await partner.api.get('/api/webhook_endpoints')).json).toEqual([]);
  });

  it('when a stored URL holds a control character or an IPv4-compatible address, then delivery refuses it and nothing is sent', async () => {
    const partner = await newPartner();
    const hook = await WebhookReceiver.start();
    const publisher = await EventPublisher.connect(sharedStack());
    try {
      const port = new URL(hook.url).port;
      const newline = await registerEndpoint(partner.api, `${hook.url}/newline`);
      const compatible = await registerEndpoint(partner.api, `${hook.url}/compatible`);
      await query('UPDATE notifications.webhook_endpoints SET url = $2 WHERE id = $1', [newline.id, `${hook.url}/newline\nX-Injected: 1`]);
      await query('UPDATE notifications.webhook_endpoints SET url = $2 WHERE id = $1', [compatible.id, `http://[::7f00:1]:${port}/compatible`]);
      const event = await publisher.publish(publisher.event(partner.partner.id));
      const attemptOf = (endpointId: string) =>
        waitFor(
          async () =>
            (await partner.api.get(`/api/webhook_endpoints/${endpointId}/deliveries`)).json.find(
              (delivery: { eventId: string }) => delivery.eventId === event.id,
            )?.attempts[0],
          { what: `a first attempt to ${endpointId}` },
        );
      expect(await attemptOf(newline.id)).toEqual(
        expect.objectContaining({ succeeded: false, statusCode: null, error: 'The URL must not contain control characters (tab, newline, NUL and the like).' }),
      );
      expect(await attemptOf(compatible.id)).toEqual(
        expect.objectContaining({
          succeeded: false,
          statusCode: null,
          error: 'The URL must be publicly reachable: ::7f00:1 is an IPv4-compatible IPv6 address (::/96).',
        }),
      );
      expect(requestsFor(hook, event.id)).toEqual([]);
    } finally {
      await publisher.close();
      await hook.close();
    }
  });
});

describe('11. deprecation headers of a checkout without Idempotency-Key', () => {
  const deprecation = (response: ApiResponse) => ({
    deprecation: response.headers.get('deprecation'),
    sunset: response.headers.get('sunset'),
    link: response.headers.get('link'),
    warning: response.headers.get('warning'),
  });
  const keyless = {
    deprecation: 'true',
    sunset: 'Mon, 01 Feb 2027 00:00:00 GMT',
    link: '</api/docs#/Carts/checkoutCart>; rel="deprecation"',
    warning: '299 - "Send an Idempotency-Key header; it becomes required on 2027-02-01"',
  };

  it('when the checkout fails (401, 404, 422, malformed JSON), then the answer still carries the deprecation headers', async () => {
    const cart = await owner.api.post('/api/carts', {
      items: [{ productNumber: `DEP-${randomUUID()}`, productName: 'Laptop', quantity: 1, price: 1000, categorySlug: 'laptops' }],
    });
    const checkout = `/api/carts/${cart.json.cartId}/checkout`;
    const answers = [
      [401, await apiAs('not-a-key').post(checkout, { duration: 36, financingType: 'leasing', customer })],
      [404, await owner.api.post('/api/carts/01J9ZZZZZZZZZZZZZZZZZZZZZZ/checkout', { duration: 36, financingType: 'leasing', customer })],
      [422, await owner.api.post(checkout, { duration: 36, financingType: 'leasing' })],
      [400, await owner.api.request('POST', checkout, { rawBody: '{"duration":', headers: { 'Content-Type': 'application/json' } })],
    ] as const;
    for (const [status, response] of answers) expect([response.status, deprecation(response)]).toEqual([status, keyless]);
  });

  it('when the checkout sends Idempotency-Key, then an error carries no deprecation header', async () => {
    const response = await owner.api.post(
      '/api/carts/01J9ZZZZZZZZZZZZZZZZZZZZZZ/checkout',
      { duration: 36, financingType: 'leasing', customer },
      { headers: { 'Idempotency-Key': randomUUID() } },
    );
    expect([response.status, response.headers.get('deprecation'), response.headers.get('warning')]).toEqual([404, null, null]);
  });

  it('when a keyless checkout succeeds, then it carries both links and the retired fields', async () => {
    const cart = await owner.api.post('/api/carts', {
      items: [{ productNumber: `DEP-${randomUUID()}`, productName: 'Laptop', quantity: 1, price: 1000, categorySlug: 'laptops' }],
    });
    const response = await owner.api.post(`/api/carts/${cart.json.cartId}/checkout`, { duration: 36, financingType: 'leasing', customer });
    expect(response.status).toBe(201);
    expect(deprecation(response)).toEqual({
      ...keyless,
      link: `</api/financing_cases/${response.json.financeCaseId}>; rel="successor-version", ${keyless.link}`,
    });
    expect(response.headers.get('x-deprecated-fields')).toBe('quoteId, quoteLink');
  });
});

describe('12. the value sets of the status event', () => {
  it("when the API description is read, then the event says fromStatus is new on creation, lists the contract places and says data.status is the case's", async () => {
    const data = (await apiAs().get('/api/docs.json')).json.components.schemas.FinancingCaseStatusChangedEvent.properties.data.properties;
    expect(data.fromStatus.description).toContain('"new" when the quote, contract or quote request was just created');
    expect(data.fromStatus.description).toContain(
      'for contract a contract place (wait_for_signing, signed, post_processing_required, delivery_approved, invoice_checked, completed, canceled)',
    );
    expect(data.fromStatus.description).toContain('for quote_request a quote request status (new, quote_created, canceled)');
    expect(data.toStatus.description).toContain('toStatus removed');
    expect(data.status.description).toContain('a contract event carries the contract place in fromStatus/toStatus and the case status here');
  });

  it('when a contract is created, then its event carries fromStatus new, the place in toStatus and the case status in data.status', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, caseId, 'wait_for_signing'));
    expect((await movesOf(caseId)).filter((move) => move.startsWith('contract:'))).toEqual(['contract:new>wait_for_signing:create:finance_accepted']);
  });
});

describe('the demo partner', () => {
  it('when acme estimates with the factor of its own list, then the answer equals the live price (no regression of the fixture)', async () => {
    const acme = apiAs(fixturePartnerKey('acme'));
    const live = await acme.post('/api/calculate/estimate', leasing36);
    const persisted = await acme.post('/api/calculate/estimate', { ...leasing36, persistedRentalFactor: '3.180' });
    expect(persisted.json.offers).toEqual(live.json.offers);
  });
});
