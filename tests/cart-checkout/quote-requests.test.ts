import { fixturePartnerKey, sampleRequester as person } from '@rental/testkit';
import { apiAs } from '../support/shared-stack';

const acme = apiAs(fixturePartnerKey('acme'));
const beta = apiAs(fixturePartnerKey('beta'));

async function calculation(body: Record<string, unknown>): Promise<string> {
  const response = await acme.post('/api/calculate', { acquisitionCost: 1000, productSector: 'IT_AND_OFFICE_EQUIPMENT', ...body });
  expect(response.status).toBe(201);
  return response.json.uri;
}

function expectViolation(response: { status: number; json: any }, propertyPath: string, code: string) {
  expect(response.status).toBe(422);
  expect(response.json.violations).toEqual(expect.arrayContaining([expect.objectContaining({ propertyPath, code })]));
}

describe('POST /api/quote_requests', () => {
  it('when the calculation has one offer, then the pair may be omitted and the quote request and its quote are created', async () => {
    const uri = await calculation({ durations: [36], calculationTypes: ['leasing'] });
    const response = await acme.post('/api/quote_requests', { ...person, calculation: uri });
    expect(response.status).toBe(201);
    expect(response.json).toEqual(
      expect.objectContaining({
        '@type': 'QuoteRequest',
        id: expect.any(Number),
        status: 'quote_created',
        email: person.email,
        firstName: 'Max',
        customerType: 'company',
        postalCode: '50667',
        productSector: 'IT_AND_OFFICE_EQUIPMENT',
        calculation: uri,
        quote: expect.stringMatching(/^\/api\/quotes\//),
        deleted: false,
      }),
    );
    expect(response.headers.get('location')).toBe(`/api/quote_requests/${response.json.id}`);
    const quote = await acme.get(response.json.quote);
    expect(quote.status).toBe(200);
    expect(quote.json).toEqual(expect.objectContaining({ status: 'in_progress', calculationType: 'leasing', duration: 36, rentalFactor: '3.180' }));
  });

  it('when the calculation has several offers, then a matching pair picks one', async () => {
    const uri = await calculation({ durations: [24, 36], calculationTypes: ['leasing'] });
    const response = await acme.post('/api/quote_requests', { ...person, calculation: uri, duration: 24, calculationType: 'leasing' });
    expect(response.status).toBe(201);
    const quote = await acme.get(response.json.quote);
    expect(quote.json).toEqual(expect.objectContaining({ duration: 24, rentalFactor: '4.610' }));
  });

  it('when the calculation has several offers and no pair is given, then 422', async () => {
    const uri = await calculation({ durations: [24, 36], calculationTypes: ['leasing'] });
    expectViolation(await acme.post('/api/quote_requests', { ...person, calculation: uri }), 'duration', 'quote_request.offer_not_selected');
  });

  it('when the pair is not among the offers, or only half of it is given, then 422', async () => {
    const uri = await calculation({ durations: [24, 36], calculationTypes: ['leasing'] });
    expectViolation(
      await acme.post('/api/quote_requests', { ...person, calculation: uri, duration: 48, calculationType: 'leasing' }),
      'duration',
      'quote_request.offer_not_found',
    );
    expectViolation(await acme.post('/api/quote_requests', { ...person, calculation: uri, duration: 24 }), 'calculationType', 'quote_request.pair_incomplete');
  });

  it('when privacy is not acknowledged, the e-mail is invalid or a field is missing, then 422 at each', async () => {
    const uri = await calculation({ durations: [36], calculationTypes: ['leasing'] });
    expectViolation(
      await acme.post('/api/quote_requests', { ...person, calculation: uri, acknowledgedPrivacy: false }),
      'acknowledgedPrivacy',
      'quote_request.privacy_not_acknowledged',
    );
    expectViolation(
      await acme.post('/api/quote_requests', { ...person, calculation: uri, acknowledgedPrivacy: undefined }),
      'acknowledgedPrivacy',
      'quote_request.privacy_not_acknowledged',
    );
    expectViolation(await acme.post('/api/quote_requests', { ...person, calculation: uri, email: 'not-an-email' }), 'email', 'validation.format');
    expectViolation(await acme.post('/api/quote_requests', { ...person, calculation: uri, city: undefined }), 'city', 'validation.required');
    expectViolation(await acme.post('/api/quote_requests', { ...person, calculation: uri, customerType: 'alien' }), 'customerType', 'validation.choice');
  });

  it("when the calculation IRI is unknown or another partner's, then 422 at calculation", async () => {
    const uri = await calculation({ durations: [36], calculationTypes: ['leasing'] });
    expectViolation(
      await acme.post('/api/quote_requests', { ...person, calculation: '/api/calculations/01J00000000000000000000000' }),
      'calculation',
      'quote_request.unknown_calculation',
    );
    expectViolation(
      await acme.post('/api/quote_requests', { ...person, calculation: 'https://elsewhere.example/x' }),
      'calculation',
      'quote_request.unknown_calculation',
    );
    expectViolation(await beta.post('/api/quote_requests', { ...person, calculation: uri }), 'calculation', 'quote_request.unknown_calculation');
  });
});

describe('GET /api/quote_requests', () => {
  it('when the partner reads its quote requests, then the read shape comes back, newest first; another partner gets 404', async () => {
    const uri = await calculation({ durations: [36], calculationTypes: ['leasing'] });
    const created = await acme.post('/api/quote_requests', { ...person, calculation: uri, message: 'Please call' });
    const read = await acme.get(`/api/quote_requests/${created.json.id}`);
    expect(read.status).toBe(200);
    expect(Object.keys(read.json).sort()).toEqual(
      [
        '@id',
        '@type',
        'category',
        'city',
        'company',
        'country',
        'createdAt',
        'creditRatingNo',
        'customerType',
        'email',
        'firstName',
        'houseNumber',
        'id',
        'lastName',
        'message',
        'name',
        'phone',
        'postalCode',
        'productSector',
        'status',
        'street',
      ].sort(),
    );
    expect(read.json.message).toBe('Please call');
    const list = await acme.get('/api/quote_requests');
    expect(list.status).toBe(200);
    expect(list.json[0].id).toBe(created.json.id);
    expect((await beta.get(`/api/quote_requests/${created.json.id}`)).status).toBe(404);
    expect((await beta.get('/api/quote_requests')).json.some((request: { id: number }) => request.id === created.json.id)).toBe(false);
    expect((await acme.get('/api/quote_requests/abc')).status).toBe(404);
    expect((await acme.get('/api/quote_requests?page=-1')).status).toBe(400);
  });
});
