import { fixturePartnerKey } from '@rental/testkit';
import { apiAs } from '../support/shared-stack';

const acme = apiAs(fixturePartnerKey('acme'));
const beta = apiAs(fixturePartnerKey('beta'));

const laptop = {
  productNumber: 'LAPTOP-1',
  productName: 'Laptop 14"',
  productSku: 'SKU-L1',
  quantity: 2,
  price: 500,
  categorySlug: 'laptops',
  productOptions: { color: 'silver' },
};
const tv = { productNumber: 'TV-55', quantity: 1, price: 800, categoryId: 6 };
const ultrasound = { productNumber: 'US-9', quantity: 1, price: 20000, categorySlug: 'ultrasound-devices' };
const printer = {
  productNumber: 'MFP-1',
  quantity: 1,
  price: 3000,
  categorySlug: 'multifunction-printers',
  devices: [{ bwBaselineCount: 1000, bwBaselinePrice: 0.0089, colorBaselineCount: 200, colorBaselinePrice: 0.059, locked: false }],
};

describe('POST /api/carts', () => {
  it('when items of one article type are sent, then 201 with purchase price and options for the cart and each item', async () => {
    const response = await acme.post('/api/carts', { items: [laptop, tv] });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`/api/carts/${response.json.cartId}`);
    expect(response.json).toEqual(
      expect.objectContaining({
        '@type': 'Cart',
        cartId: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        status: 'active',
        purchasePrice: 1800,
        recurringServiceFee: null,
        financeCaseId: null,
      }),
    );
    // laptops and televisions both allow 12–48 months; leasing 36 at 3.180 % of 1800.00 = 57.24 + 2.50
    expect(response.json.financingOptions).toEqual(
      expect.arrayContaining([{ financingType: 'leasing', duration: 36, commission: 0, rate: 59.74, rentalFactor: '3.180' }]),
    );
    expect(response.json.financingOptions.some((option: { duration: number }) => option.duration > 48)).toBe(false);
    expect(response.json.financingOptions.some((option: { financingType: string }) => option.financingType.startsWith('print_plan'))).toBe(false);
    expect(response.json.items).toHaveLength(2);
    expect(response.json.items[0]).toEqual(expect.objectContaining({ ...laptop, position: 1, total: 1000 }));
    expect(response.json.items[0].financingOptions).toEqual(
      expect.arrayContaining([{ financingType: 'leasing', duration: 36, commission: 0, rate: 34.3, rentalFactor: '3.180' }]),
    );
  });

  it('when a Print-Plan cart carries click data, then the recurring service fee is the sum of baseline count × price', async () => {
    const response = await acme.post('/api/carts', { items: [printer] });
    expect(response.status).toBe(201);
    // 1000 × 0.0089 + 200 × 0.059 = 8.90 + 11.80
    expect(response.json.recurringServiceFee).toBe(20.7);
    expect(response.json.financingOptions).toEqual(
      expect.arrayContaining([expect.objectContaining({ financingType: 'print_plan', duration: 36, rate: 101.5 })]),
    );
  });

  it('when the items mix article types, then 422 with one MIXED_ARTICLE_TYPES violation per item and nothing stored', async () => {
    const response = await acme.post('/api/carts', { items: [laptop, ultrasound, tv] });
    expect(response.status).toBe(422);
    expect(response.contentType).toBe('application/problem+json; charset=utf-8');
    expect(response.json.violations).toEqual([
      { propertyPath: 'items[0]', code: 'MIXED_ARTICLE_TYPES', message: expect.stringContaining('LAPTOP-1 has article type ITK') },
      { propertyPath: 'items[1]', code: 'MIXED_ARTICLE_TYPES', message: expect.stringContaining('US-9 has article type NON_ITK') },
      { propertyPath: 'items[2]', code: 'MIXED_ARTICLE_TYPES', message: expect.stringContaining('TV-55 has article type ITK') },
    ]);
  });

  it('when fields are invalid, then 422 with a violation at each exact path', async () => {
    const response = await acme.post('/api/carts', {
      items: [
        { ...laptop, quantity: 0, price: 10.123, productOptions: { color: 5 } },
        { ...tv, quantity: 1.5, devices: [{ bwBaselineCount: -1 }] },
      ],
    });
    expect(response.status).toBe(422);
    const paths = response.json.violations.map((violation: { propertyPath: string }) => violation.propertyPath).sort();
    expect(paths).toEqual(['items[0].price', 'items[0].productOptions.color', 'items[0].quantity', 'items[1].devices[0].bwBaselineCount', 'items[1].quantity']);
  });

  it('when items are missing or empty, then 422 at items', async () => {
    expect((await acme.post('/api/carts', {})).json.violations).toEqual([expect.objectContaining({ propertyPath: 'items', code: 'validation.required' })]);
    expect((await acme.post('/api/carts', { items: [] })).json.violations).toEqual([
      expect.objectContaining({ propertyPath: 'items', code: 'validation.too_small' }),
    ]);
  });
});

describe('GET and PUT /api/carts/{id}', () => {
  it('when the owner reads the cart, then 200 with its status; another partner gets 404', async () => {
    const created = await acme.post('/api/carts', { items: [laptop] });
    const read = await acme.get(`/api/carts/${created.json.cartId}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);
    const foreign = await beta.get(`/api/carts/${created.json.cartId}`);
    expect(foreign.status).toBe(404);
    expect((await acme.get('/api/carts/01J00000000000000000000000')).status).toBe(404);
    expect((await acme.get('/api/carts/not-a-cart')).status).toBe(404);
  });

  it('when the items are replaced, then the cart is priced again; another partner cannot replace it', async () => {
    const created = await acme.post('/api/carts', { items: [laptop] });
    const replaced = await acme.put(`/api/carts/${created.json.cartId}`, { items: [tv] });
    expect(replaced.status).toBe(200);
    expect(replaced.json.purchasePrice).toBe(800);
    expect(replaced.json.items.map((item: { productNumber: string }) => item.productNumber)).toEqual(['TV-55']);
    expect((await beta.put(`/api/carts/${created.json.cartId}`, { items: [ultrasound] })).status).toBe(404);
    expect((await acme.get(`/api/carts/${created.json.cartId}`)).json.purchasePrice).toBe(800);
  });

  it('when a replacement mixes article types, then 422 and the cart keeps its items', async () => {
    const created = await acme.post('/api/carts', { items: [laptop] });
    const replaced = await acme.put(`/api/carts/${created.json.cartId}`, { items: [laptop, ultrasound] });
    expect(replaced.status).toBe(422);
    expect(replaced.json.violations).toHaveLength(2);
    expect((await acme.get(`/api/carts/${created.json.cartId}`)).json.purchasePrice).toBe(1000);
  });
});
