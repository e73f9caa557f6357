import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createLogger } from '@rental/logger';
import { DEMO_SEED_FILE, readSeedFile, seedDeployment } from '@rental/stack';
import { ApiClient, createTestPartner, fixturePartnerKey, sampleCustomer as customer, sampleDeliveryAddress } from '@rental/testkit';
import { partnerWithHub } from '../support/partners';
import { apiAs, sharedStack } from '../support/shared-stack';
import { problemTypeOf } from '../support/problems';

const acme = apiAs(fixturePartnerKey('acme'));
const beta = apiAs(fixturePartnerKey('beta'));

const laptop = { productNumber: 'LAPTOP-1', quantity: 1, price: 1000, categorySlug: 'laptops' };
const ultrasound = { productNumber: 'US-9', quantity: 1, price: 20000, categorySlug: 'ultrasound-devices' };
const printer = { productNumber: 'MFP-1', quantity: 1, price: 3000, categorySlug: 'multifunction-printers' };
const leasing = { duration: 36, financingType: 'leasing', customer };

async function cartOf(api: ApiClient, items: unknown[]): Promise<string> {
  const response = await api.post('/api/carts', { items });
  expect(response.status).toBe(201);
  return response.json.cartId;
}

const withKey = (key: string = randomUUID()) => ({ headers: { 'Idempotency-Key': key } });

function expectProblem(response: { status: number; contentType: string; json: any }, status: number, code?: string) {
  expect(response.status).toBe(status);
  expect(response.contentType).toBe('application/problem+json; charset=utf-8');
  if (code) expect(response.json.type).toBe(problemTypeOf(code));
}

describe('checkout: success and idempotency', () => {
  it('when a cart is checked out with a key, then 201 with the case, the retired quote fields and their deprecation headers', async () => {
    const cartId = await cartOf(acme, [laptop]);
    const response = await acme.post(`/api/carts/${cartId}/checkout`, leasing, withKey());
    expect(response.status).toBe(201);
    const { financeCaseId, quoteId } = response.json;
    expect(response.json).toEqual({
      financeCaseId: expect.any(String),
      financeCaseLink: `${sharedStack().gatewayUrl}/api/financing_cases/${financeCaseId}`,
      message: expect.any(String),
      quoteId: expect.any(String),
      quoteLink: `${sharedStack().gatewayUrl}/api/quotes/${quoteId}`,
    });
    expect(response.headers.get('deprecation')).toBe('true');
    expect(response.headers.get('sunset')).toBe('Mon, 01 Feb 2027 00:00:00 GMT');
    expect(response.headers.get('x-deprecated-fields')).toBe('quoteId, quoteLink');
    expect(response.headers.get('link')).toBe(`</api/financing_cases/${financeCaseId}>; rel="successor-version"`);
    const cart = await acme.get(`/api/carts/${cartId}`);
    expect(cart.json).toEqual(expect.objectContaining({ status: 'checked_out', financeCaseId }));
    const financingCase = await acme.get(`/api/financing_cases/${financeCaseId}`);
    expect(financingCase.status).toBe(200);
    expect(financingCase.json.financingRequest).toBe(true);
  });

  it("when the header is missing, then the checkout succeeds with a Link to the header's documentation", async () => {
    const cartId = await cartOf(acme, [laptop]);
    const response = await acme.post(`/api/carts/${cartId}/checkout`, leasing);
    expect(response.status).toBe(201);
    expect(response.headers.get('deprecation')).toBe('true');
    expect(response.headers.get('sunset')).toBe('Mon, 01 Feb 2027 00:00:00 GMT');
    expect(response.headers.get('link')).toContain('</api/docs#/Carts/checkoutCart>; rel="deprecation"');
  });

  it('when the same key and body come again, then the original answer comes back and no second case is made', async () => {
    const cartId = await cartOf(acme, [laptop]);
    const key = withKey();
    const first = await acme.post(`/api/carts/${cartId}/checkout`, leasing, key);
    const again = await acme.post(`/api/carts/${cartId}/checkout`, { customer, financingType: 'leasing', duration: 36 }, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
  });

  it('when the same key comes with a different body, then 422', async () => {
    const cartId = await cartOf(acme, [laptop]);
    const key = withKey();
    expect((await acme.post(`/api/carts/${cartId}/checkout`, leasing, key)).status).toBe(201);
    const reused = await acme.post(`/api/carts/${cartId}/checkout`, { ...leasing, duration: 24 }, key);
    expectProblem(reused, 422, 'idempotency.key_reused');
    expect(reused.json.violations).toEqual([expect.objectContaining({ propertyPath: 'Idempotency-Key', code: 'idempotency.key_reused' })]);
  });

  it("when keys are per partner, then another partner's identical key is its own", async () => {
    const key = randomUUID();
    const acmeCart = await cartOf(acme, [laptop]);
    expect((await acme.post(`/api/carts/${acmeCart}/checkout`, leasing, withKey(key))).status).toBe(201);
    const partner = await createTestPartner(sharedStack());
    const other = apiAs(partner.key);
    const otherCart = await cartOf(other, [laptop]);
    const response = await other.post(`/api/carts/${otherCart}/checkout`, leasing, withKey(key));
    expect(response.status).toBe(201);
  });

  it('when a checked-out cart is checked out again with a new key, then 409', async () => {
    const cartId = await cartOf(acme, [laptop]);
    expect((await acme.post(`/api/carts/${cartId}/checkout`, leasing, withKey())).status).toBe(201);
    expectProblem(await acme.post(`/api/carts/${cartId}/checkout`, leasing, withKey()), 409, 'cart.already_checked_out');
    expectProblem(await acme.post(`/api/carts/${cartId}/checkout`, leasing), 409, 'cart.already_checked_out');
  });

  it('when two checkouts of one cart without keys start together, then exactly one 201 and one 409', async () => {
    const cartId = await cartOf(acme, [laptop]);
    const statuses = (await Promise.all([acme.post(`/api/carts/${cartId}/checkout`, leasing), acme.post(`/api/carts/${cartId}/checkout`, leasing)]))
      .map((response) => response.status)
      .sort();
    expect(statuses).toEqual([201, 409]);
  });

  it('when a second request with the same key arrives while the first still runs, then 409', async () => {
    // A rent checkout waits for the hub's SLA list; this hub answers after 600 ms.
    const { api, slaFileId } = await partnerWithHub('Steady', 600);
    const cartId = await cartOf(api, [laptop]);
    const key = withKey();
    const body = { ...leasing, financingType: 'rent', customSlaFileName: slaFileId };
    const first = api.post(`/api/carts/${cartId}/checkout`, body, key);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await api.post(`/api/carts/${cartId}/checkout`, body, key);
    expectProblem(second, 409, 'checkout.running');
    expect((await first).status).toBe(201);
    const replay = await api.post(`/api/carts/${cartId}/checkout`, body, key);
    expect(replay.status).toBe(201);
    expect(replay.json).toEqual((await first).json);
  });

  it('when the key is longer than 255 characters, then 400 and nothing is created', async () => {
    const cartId = await cartOf(acme, [laptop]);
    expectProblem(await acme.post(`/api/carts/${cartId}/checkout`, leasing, withKey('k'.repeat(256))), 400, 'idempotency.key_invalid');
    expect((await acme.get(`/api/carts/${cartId}`)).json.status).toBe('active');
    expect((await acme.post(`/api/carts/${cartId}/checkout`, leasing, withKey('k'.repeat(255)))).status).toBe(201);
  });
});

describe('checkout: rejected before anything is created', () => {
  it("when the cart does not exist, then 404; another partner's cart, then 403", async () => {
    expectProblem(await acme.post('/api/carts/01J00000000000000000000000/checkout', leasing), 404);
    const cartId = await cartOf(acme, [laptop]);
    expectProblem(await beta.post(`/api/carts/${cartId}/checkout`, leasing), 403);
    expect((await acme.get(`/api/carts/${cartId}`)).json.status).toBe('active');
  });

  it("when a key comes with another partner's cart, then 403 and the key stays free for the partner's own cart", async () => {
    const key = randomUUID();
    const theirs = await cartOf(beta, [laptop]);
    const mine = await cartOf(acme, [laptop]);

    expectProblem(await acme.post(`/api/carts/${theirs}/checkout`, leasing, withKey(key)), 403);
    const own = await acme.post(`/api/carts/${mine}/checkout`, leasing, withKey(key));

    expect(own.status).toBe(201);
    expect((await beta.get(`/api/carts/${theirs}`)).json.status).toBe('active');
  });

  it.each([
    [
      'the sector is not enabled for the partner',
      'beta',
      [{ productNumber: 'TV-55', quantity: 1, price: 800, categoryId: 6 }],
      {},
      'checkout.sector_not_enabled',
    ],
    ['a category slug is unknown', 'acme', [{ ...laptop, categorySlug: 'no-such-category' }], {}, 'checkout.unknown_category'],
    ['category id and slug name different sectors', 'acme', [{ ...laptop, categoryId: 4 }], {}, 'checkout.unknown_category'],
    [
      'the financing type is not offered for the duration',
      'acme',
      [laptop],
      { financingType: 'rent_to_own', duration: 48 },
      'checkout.financing_type_not_offered',
    ],
    ["the duration is outside the products' depreciation range", 'acme', [laptop], { duration: 60 }, 'checkout.duration_not_allowed'],
    ['a rent quote has no custom SLA', 'acme', [laptop], { financingType: 'rent' }, 'checkout.custom_sla_required'],
    [
      'a rent quote names an SLA the hub does not have',
      'acme',
      [laptop],
      { financingType: 'rent', customSlaFileName: 'sla-bronze-2024' },
      'checkout.custom_sla_invalid',
    ],
    ['submitFinancing is not a boolean', 'acme', [laptop], { submitFinancing: 'yes' }, 'checkout.invalid_submit_financing'],
  ])('when %s, then 400', async (_case, partnerId, items, overrides, code) => {
    const api = apiAs(fixturePartnerKey(partnerId));
    const cartId = await cartOf(api, items);
    expectProblem(await api.post(`/api/carts/${cartId}/checkout`, { ...leasing, ...overrides }, withKey()), 400, code);
    expect((await api.get(`/api/carts/${cartId}`)).json.status).toBe('active');
  });

  it.each([
    ['a required field is missing', [laptop], { duration: undefined }, 'duration', 'validation.required'],
    ['a field is unknown', [laptop], { discount: 5 }, 'discount', 'validation.unknown_field'],
    ['the customer has no company', [laptop], { customer: { ...customer, company: undefined } }, 'customer.company', 'validation.required'],
    ['the financing type is unknown', [laptop], { financingType: 'partial_amortisation_leasing' }, 'financingType', 'validation.choice'],
    ['the commission tier is not available', [laptop], { commission: 7 }, 'commission', 'checkout.commission_not_available'],
    ['a Print-Plan item has no Print-Plan category', [printer, laptop], { financingType: 'print_plan' }, 'items[1]', 'checkout.print_plan_not_possible'],
    ['Print-Plan carries a service cost', [printer], { financingType: 'print_plan', serviceCost: 10 }, 'serviceCost', 'checkout.not_allowed_for_print_plan'],
    [
      'Print-Plan names a custom SLA',
      [printer],
      { financingType: 'print_plan_3kdg_12verl', customSlaFileName: 'sla-gold-2026' },
      'customSlaFileName',
      'checkout.not_allowed_for_print_plan',
    ],
    [
      'the delivery address lacks its recipient',
      [laptop],
      { deliveryAddress: { street: 'A', houseNumber: '1', zipCode: '1', city: 'B', country: 'DE' } },
      'deliveryAddress.recipientName',
      'validation.required',
    ],
  ])('when %s, then 422 at the field', async (_case, items, overrides, propertyPath, code) => {
    const cartId = await cartOf(acme, items);
    const response = await acme.post(`/api/carts/${cartId}/checkout`, { ...leasing, ...overrides }, withKey());
    expectProblem(response, 422);
    expect(response.json.violations).toEqual(expect.arrayContaining([expect.objectContaining({ propertyPath, code })]));
    expect((await acme.get(`/api/carts/${cartId}`)).json.status).toBe('active');
  });

  it('when the payment interval is not available to the partner, then 422', async () => {
    const api = apiAs(fixturePartnerKey('beta'));
    const cartId = await cartOf(api, [ultrasound]);
    const response = await api.post(`/api/carts/${cartId}/checkout`, { ...leasing, paymentInterval: 'quarterly' }, withKey());
    expectProblem(response, 422);
    expect(response.json.violations).toEqual([expect.objectContaining({ propertyPath: 'paymentInterval', code: 'checkout.payment_interval_not_available' })]);
  });

  it('when a cart stored before the article-type rule mixes types, then checkout gives one MIXED_ARTICLE_TYPES per item', async () => {
    const cartId = await cartOf(acme, [laptop]);
    const db = new Client({ connectionString: sharedStack().databaseUrl });
    await db.connect();
    try {
      await db.query('UPDATE cart_checkout.carts SET items = $1 WHERE id = $2', [JSON.stringify([laptop, ultrasound]), cartId]);
    } finally {
      await db.end();
    }
    const response = await acme.post(`/api/carts/${cartId}/checkout`, leasing, withKey());
    expectProblem(response, 422);
    expect(response.json.violations.map((v: { propertyPath: string; code: string }) => `${v.propertyPath}:${v.code}`)).toEqual([
      'items[0]:MIXED_ARTICLE_TYPES',
      'items[1]:MIXED_ARTICLE_TYPES',
    ]);
  });

  it('when the partner has no financing partner yet, then 422 partner_financing_not_ready and the same request works once one is assigned', async () => {
    const stack = sharedStack();
    const partner = await createTestPartner(stack, { like: 'acme', overrides: { financingPartner: null } });
    const api = apiAs(partner.key);
    const cartId = await cartOf(api, [laptop]);
    const key = withKey();
    const refused = await api.post(`/api/carts/${cartId}/checkout`, leasing, key);
    expectProblem(refused, 422, 'partner_financing_not_ready');
    expect(refused.json.detail).toMatch(/^partner_financing_not_ready:/);
    expect((await api.get(`/api/carts/${cartId}`)).json.status).toBe('active');

    const fixture = readSeedFile(DEMO_SEED_FILE);
    const template = fixture.partners.find((p) => p.id === 'acme');
    await seedDeployment(
      stack.databaseUrl,
      stack.environment,
      {
        ...fixture,
        partners: [{ ...template!, id: partner.id, name: 'assigned', apiKeys: [{ key: partner.key, environment: 'sandbox', roles: ['api_user'] }], users: [] }],
      },
      createLogger('test', 'warn'),
      { productionSimulators: false },
    );
    expect((await api.post(`/api/carts/${cartId}/checkout`, leasing, key)).status).toBe(201);
  });

  it('when a quote number is already used by another quote of the partner, then 409', async () => {
    const quoteNumber = `Q-${randomUUID().slice(0, 8)}`;
    const first = await cartOf(acme, [laptop]);
    expect((await acme.post(`/api/carts/${first}/checkout`, { ...leasing, quoteNumber }, withKey())).status).toBe(201);
    const second = await cartOf(acme, [laptop]);
    expectProblem(await acme.post(`/api/carts/${second}/checkout`, { ...leasing, quoteNumber }, withKey()), 409);
    expect((await acme.get(`/api/carts/${second}`)).json.status).toBe('active');
  });
});

describe('checkout: what the quote carries', () => {
  it('when submitFinancing is false, then the case stays in_progress without a financing request', async () => {
    const cartId = await cartOf(acme, [laptop]);
    const response = await acme.post(`/api/carts/${cartId}/checkout`, { ...leasing, submitFinancing: false }, withKey());
    expect(response.status).toBe(201);
    const financingCase = await acme.get(`/api/financing_cases/${response.json.financeCaseId}`);
    expect(financingCase.json).toEqual(expect.objectContaining({ status: 'in_progress', financingRequest: false }));
  });

  it("when a delivery address is given, then it becomes the quote's shipping address with frozen terms", async () => {
    const cartId = await cartOf(acme, [laptop]);
    const deliveryAddress = sampleDeliveryAddress;
    const response = await acme.post(`/api/carts/${cartId}/checkout`, { ...leasing, deliveryAddress }, withKey());
    expect(response.status).toBe(201);
    const quote = await acme.get(new URL(response.json.quoteLink).pathname);
    expect(quote.status).toBe(200);
    expect(quote.json.shippingAddress).toEqual(expect.objectContaining({ recipientName: 'Lager Nord', street: 'Hafenweg', city: 'Hamburg' }));
    expect(quote.json).toEqual(
      expect.objectContaining({
        rentalFactor: '3.180',
        commissionPercentage: 0,
        paymentInterval: 'monthly',
        duration: 36,
        calculationType: 'leasing',
        monthlyRateAllIn: 34.3,
      }),
    );
  });
});
