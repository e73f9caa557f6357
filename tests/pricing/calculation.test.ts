import { fixturePartnerKey } from '@rental/testkit';
import { apiAs } from '../support/shared-stack';

const acme = apiAs(fixturePartnerKey('acme'));
const beta = apiAs(fixturePartnerKey('beta'));
const gamma = apiAs(fixturePartnerKey('gamma'));

const leasing36 = { durations: [36], calculationTypes: ['leasing'], acquisitionCost: 1000, productSector: 'IT_AND_OFFICE_EQUIPMENT' };
/** leasing36 with a category (laptops) instead of a sector. */
const laptopsOnly = { durations: [36], calculationTypes: ['leasing'], acquisitionCost: 1000, categorySlug: 'laptops' };

function expectViolation(response: { status: number; contentType: string; json: any }, propertyPath: string, code: string) {
  expect(response.status).toBe(422);
  expect(response.contentType).toBe('application/problem+json; charset=utf-8');
  expect(response.json.violations).toEqual(expect.arrayContaining([expect.objectContaining({ propertyPath, code, message: expect.any(String) })]));
}

describe('POST /api/calculate/estimate', () => {
  it('when acme leases 1000.00 for 36 months monthly, then the rate is 31.80 plus the 2.50 surcharge', async () => {
    const response = await acme.post('/api/calculate/estimate', leasing36);
    expect(response.status).toBe(201);
    expect(response.json.currency).toBe('EUR');
    expect(response.json.offers).toEqual([
      { duration: 36, calculationType: 'leasing', rate: 34.3, rentalFactor: '3.180', commission: 0, residualValue: null, paymentInterval: 'monthly' },
    ]);
    expect(response.json.selectedOffer).toEqual(response.json.offers[0]);
    expect(response.json.request).toEqual(expect.objectContaining({ ...leasing36, paymentInterval: 'monthly' }));
  });

  it('when the interval is quarterly, then no surcharge is added and the rate stays monthly', async () => {
    const response = await acme.post('/api/calculate/estimate', { ...leasing36, paymentInterval: 'quarterly' });
    expect(response.status).toBe(201);
    expect(response.json.offers.map((offer: { rate: number }) => offer.rate)).toEqual([31.8]);
  });

  it('when the product ends in half a cent or more, then the rate rounds half up to cents', async () => {
    // 1234.50 × 2.460 % = 30.3687 → 30.37, plus 2.50
    const response = await acme.post('/api/calculate/estimate', { ...leasing36, durations: [48], acquisitionCost: 1234.5 });
    expect(response.json.offers[0].rate).toBe(32.87);
  });

  it('when installation cost is given, then it is financed with the acquisition cost', async () => {
    const response = await acme.post('/api/calculate/estimate', { ...leasing36, acquisitionCost: 900, installationCost: 100 });
    expect(response.json.offers[0].rate).toBe(34.3);
  });

  it('when rent carries a service cost, then it is added to the rent rate only', async () => {
    const response = await acme.post('/api/calculate/estimate', { ...leasing36, calculationTypes: ['rent', 'leasing'], serviceCost: 10 });
    expect(response.json.offers.map((offer: { calculationType: string; rate: number }) => [offer.calculationType, offer.rate])).toEqual([
      ['rent', 46.5],
      ['leasing', 34.3],
    ]);
  });

  it("when a requested duration is missing from a type's list, then that type has no offer for it", async () => {
    const response = await acme.post('/api/calculate/estimate', { ...leasing36, durations: [36, 48], calculationTypes: ['rent_to_own', 'leasing'] });
    expect(response.status).toBe(201);
    expect(response.json.offers.map((offer: { calculationType: string; duration: number }) => `${offer.calculationType}/${offer.duration}`)).toEqual([
      'rent_to_own/36',
      'leasing/36',
      'leasing/48',
    ]);
    expect(response.json.selectedOffer).toBeNull();
  });

  it('when the partner has no 0 % tier, then the lowest tier is preselected', async () => {
    const response = await beta.post('/api/calculate/estimate', leasing36);
    expect(response.json.offers).toEqual([expect.objectContaining({ commission: 2, rentalFactor: '3.320', rate: 35.1 })]);
  });

  it('when a commission tier is named, then its list is used', async () => {
    const response = await acme.post('/api/calculate/estimate', { ...leasing36, commission: 3 });
    expect(response.json.offers).toEqual([expect.objectContaining({ commission: 3, rentalFactor: '3.280', rate: 35.3 })]);
  });

  it.each([
    ['the named tier does not exist', 'at commission', { ...leasing36, commission: 7 }, 'commission', 'calculation.validation.commission_not_available'],
    [
      'a duration is outside the sector range',
      'duration_not_allowed',
      { ...leasing36, durations: [36, 72] },
      'durations',
      'calculation.validation.duration_not_allowed',
    ],
    ['the sector is not a known value', 'choice violation', { ...leasing36, productSector: 'BANANAS' }, 'productSector', 'validation.choice'],
    [
      'the category belongs to another sector than the one given',
      'at categorySlug',
      { ...leasing36, categorySlug: 'ultrasound-devices' },
      'categorySlug',
      'calculation.validation.category_sector_mismatch',
    ],
    [
      'the category is unknown',
      'at categorySlug',
      { ...leasing36, categorySlug: 'no-such-category' },
      'categorySlug',
      'calculation.validation.unknown_category',
    ],
    [
      'neither sector nor category is given',
      'sector not resolvable',
      { durations: [36], calculationTypes: ['leasing'], acquisitionCost: 1000 },
      'productSector',
      'calculation.validation.sector_not_resolvable',
    ],
    ['an amount has more than two decimals', 'at that field', { ...leasing36, acquisitionCost: 10.001 }, 'acquisitionCost', 'validation.format'],
    [
      "a persisted rental factor is on none of the partner's quotes or lists",
      'at persistedRentalFactor',
      { ...leasing36, persistedRentalFactor: '3.000' },
      'persistedRentalFactor',
      'calculation.validation.rental_factor_not_frozen',
    ],
  ])('when %s, then 422 %s', async (_when, _then, body, propertyPath, code) => {
    expectViolation(await acme.post('/api/calculate/estimate', body), propertyPath, code);
  });

  it('when the residual value is maintained, then the offer carries it', async () => {
    const response = await acme.post('/api/calculate/estimate', { ...leasing36, calculationTypes: ['partial_amortisation_leasing'] });
    expect(response.json.offers).toEqual([expect.objectContaining({ residualValue: '15.000', rentalFactor: '2.750', rate: 30 })]);
  });

  it('when no requested duration is available, then 422 duration_not_available at durations', async () => {
    const response = await acme.post('/api/calculate/estimate', { ...leasing36, durations: [48], calculationTypes: ['rent_to_own'] });
    expectViolation(response, 'durations', 'calculation.validation.duration_not_available');
    expect(response.json.violations).toHaveLength(1);
  });

  it('when the category narrows the range, then a duration outside it is 422', async () => {
    const response = await acme.post('/api/calculate/estimate', { ...laptopsOnly, durations: [60] });
    expectViolation(response, 'durations', 'calculation.validation.duration_not_allowed');
  });

  it('when only a category is given, then its sector is used', async () => {
    const response = await acme.post('/api/calculate/estimate', laptopsOnly);
    expect(response.status).toBe(201);
    expect(response.json.offers[0].rate).toBe(34.3);
  });

  it('when the sector is not allowed for the partner, then 422 at productSector', async () => {
    expectViolation(await gamma.post('/api/calculate/estimate', leasing36), 'productSector', 'calculation.validation.sector_not_allowed');
  });

  it('when fields have wrong types, then 422 names each field and never 500', async () => {
    const response = await acme.post('/api/calculate/estimate', {
      durations: '36',
      calculationTypes: ['leasing'],
      acquisitionCost: 'a lot',
      productSector: 'IT_AND_OFFICE_EQUIPMENT',
    });
    expectViolation(response, 'durations', 'validation.type');
    expectViolation(response, 'acquisitionCost', 'validation.type');
  });

  it('when required fields are missing, then 422 required at each', async () => {
    const response = await acme.post('/api/calculate/estimate', {});
    expectViolation(response, 'durations', 'validation.required');
    expectViolation(response, 'calculationTypes', 'validation.required');
  });

  it('when the optional properties of the specification are sent, then they are accepted', async () => {
    const response = await acme.post('/api/calculate/estimate', {
      ...leasing36,
      allowedProductSectors: [],
      type: 1,
      partner: '/api/partners/acme',
      margin: 1.5,
      category: null,
      public: true,
      active: true,
      distributionHub: null,
      distributionHubOverride: null,
      persistedRentalFactor: null,
      requestType: 0,
      completeAcquisitionCost: 1000,
      partnerCalculation: false,
      selectedCalculationTypes: ['leasing'],
      selectedDurations: [36],
      complete: true,
      userType: 'partner',
      categorySlug: null,
    });
    expect(response.status).toBe(201);
    expect(response.json.selectedOffer).toEqual(expect.objectContaining({ duration: 36, calculationType: 'leasing' }));
  });

  it('when a persisted rental factor is the live factor of the term and tier priced, then it prices with it; the same factor at another tier is 422', async () => {
    const response = await acme.post('/api/calculate/estimate', { ...leasing36, commission: 3, persistedRentalFactor: '3.280' });
    expect(response.json.offers[0]).toEqual(expect.objectContaining({ rentalFactor: '3.280', rate: 35.3 }));
    expectViolation(
      await acme.post('/api/calculate/estimate', { ...leasing36, persistedRentalFactor: '3.280' }),
      'persistedRentalFactor',
      'calculation.validation.rental_factor_not_frozen',
    );
  });

  it('when the sandbox scenario calculation_not_possible is sent, then 500 with the empty-calculation shape', async () => {
    const response = await acme.post('/api/calculate/estimate', { ...leasing36, sandboxScenario: 'calculation_not_possible' });
    expect(response.status).toBe(500);
    expect(response.contentType).toBe('application/problem+json; charset=utf-8');
    expect(response.json).toEqual(
      expect.objectContaining({ status: 500, offers: [], currency: 'EUR', selectedOffer: null, request: expect.objectContaining({ durations: [36] }) }),
    );
  });
});

describe('POST /api/calculate', () => {
  it('when a calculation is made, then it is stored and readable at its uri by its partner only', async () => {
    const created = await acme.post('/api/calculate', leasing36);
    expect(created.status).toBe(201);
    expect(created.json).toEqual(
      expect.objectContaining({
        '@type': 'Calculation',
        id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        uri: `/api/calculations/${created.json.id}`,
        partner: expect.objectContaining({ id: 'acme' }),
        createdAt: expect.any(String),
      }),
    );
    expect(created.headers.get('location')).toBe(created.json.uri);
    expect(created.json.response.offers[0].rate).toBe(34.3);
    const read = await acme.get(created.json.uri);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);
    const foreign = await beta.get(created.json.uri);
    expect(foreign.status).toBe(404);
    expect(foreign.json.detail).not.toContain('acme');
  });

  it('when the sandbox scenario is sent, then 500 with a calculation without offers and nothing usable stored', async () => {
    const response = await acme.post('/api/calculate', { ...leasing36, sandboxScenario: 'calculation_not_possible' });
    expect(response.status).toBe(500);
    expect(response.json).toEqual(expect.objectContaining({ id: null, uri: null, response: expect.objectContaining({ offers: [], selectedOffer: null }) }));
  });

  it('when the id is not a calculation id, then 404', async () => {
    expect((await acme.get('/api/calculations/not-an-id')).status).toBe(404);
    expect((await acme.get('/api/calculations/01J00000000000000000000000')).status).toBe(404);
  });
});

describe('POST /api/calculate/estimate/bulk', () => {
  it('when two items are valid, then 200 with one successful result each', async () => {
    const response = await acme.post('/api/calculate/estimate/bulk', { items: [leasing36, { ...leasing36, acquisitionCost: 2000 }] });
    expect(response.status).toBe(200);
    expect(response.json.results.map((result: any) => [result.index, result.success, result.response.offers[0].rate, result.error])).toEqual([
      [0, true, 34.3, null],
      [1, true, 66.1, null],
    ]);
  });

  it('when one item is bad, then only that item fails with its violations', async () => {
    const response = await acme.post('/api/calculate/estimate/bulk', { items: [leasing36, { ...leasing36, durations: [72] }, { durations: 'x' }] });
    expect(response.status).toBe(200);
    const [first, second, third] = response.json.results;
    expect(first.success).toBe(true);
    expect(second).toEqual({
      index: 1,
      success: false,
      response: null,
      error: [expect.objectContaining({ propertyPath: 'durations', code: 'calculation.validation.duration_not_allowed' })],
    });
    expect(third.success).toBe(false);
    expect(third.error).toEqual(expect.arrayContaining([expect.objectContaining({ propertyPath: 'durations', code: 'validation.type' })]));
  });

  it('when fewer than 2 or more than 50 items are sent, then 422 at items', async () => {
    expectViolation(await acme.post('/api/calculate/estimate/bulk', { items: [leasing36] }), 'items', 'validation.too_small');
    expectViolation(await acme.post('/api/calculate/estimate/bulk', { items: Array.from({ length: 51 }, () => leasing36) }), 'items', 'validation.too_big');
    expectViolation(await acme.post('/api/calculate/estimate/bulk', {}), 'items', 'validation.required');
  });

  it('when 50 items are sent, then 50 results come back in order', async () => {
    const items = Array.from({ length: 50 }, (_, index) => ({ ...leasing36, acquisitionCost: 1000 + index }));
    const response = await acme.post('/api/calculate/estimate/bulk', { items });
    expect(response.status).toBe(200);
    expect(response.json.results).toHaveLength(50);
    expect(response.json.results.every((result: any, index: number) => result.index === index && result.success)).toBe(true);
  });
});
