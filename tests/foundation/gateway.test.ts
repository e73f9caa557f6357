import { fixturePartnerKey } from '@rental/testkit';
import { apiAs } from '../support/shared-stack';

const ACME = fixturePartnerKey('acme');
const BETA = fixturePartnerKey('beta');
const ACME_PRODUCTION = fixturePartnerKey('acme', 'production');

function expectProblem(response: { status: number; contentType: string; json: any }, status: number) {
  expect(response.status).toBe(status);
  expect(response.contentType).toBe('application/problem+json; charset=utf-8');
  expect(response.json).toEqual(expect.objectContaining({ status, type: expect.any(String), title: expect.any(String), detail: expect.any(String) }));
}

describe('gateway authentication', () => {
  it('when the key is missing, then 401 problem+json', async () => {
    const response = await apiAs().get('/api/product-sectors');
    expectProblem(response, 401);
    expect(response.headers.get('www-authenticate')).toBe('ApiKey header="X-Api-Key"');
  });

  it('when the key is unknown, then 401 problem+json', async () => {
    expectProblem(await apiAs('sbx_unknown_0000000000000000000000').get('/api/product-sectors'), 401);
  });

  it('when the key belongs to the other environment, then 401 problem+json', async () => {
    expectProblem(await apiAs(ACME_PRODUCTION).get('/api/product-sectors'), 401);
  });

  it('when the key is valid, then the service answers for that partner', async () => {
    const beta = await apiAs(BETA).get('/api/product-sectors');
    expect(beta.status).toBe(200);
    expect(beta.json.map((sector: { value: string }) => sector.value)).toEqual(['IT_AND_OFFICE_EQUIPMENT', 'MEDICAL_DEVICES']);
    const acme = await apiAs(ACME).get('/api/product-sectors');
    expect(acme.json).toHaveLength(15);
  });

  it('when a client sends partner headers itself, then they are ignored', async () => {
    const response = await apiAs(ACME).get('/api/product-sectors', {
      headers: { 'X-Rental-Partner-Id': 'beta', 'X-Partner-Id': 'beta', 'X-Rental-Roles': 'api_user,admin' },
    });
    expect(response.status).toBe(200);
    expect(response.json).toHaveLength(15);
  });

  it('when a key has no api_user role, then it still authenticates', async () => {
    const response = await apiAs(fixturePartnerKey('acme', 'sandbox', 'none')).get('/api/product-sectors');
    expect(response.status).toBe(200);
  });
});

describe('gateway conventions', () => {
  it('when the path is unknown, then 404 problem+json', async () => {
    expectProblem(await apiAs(ACME).get('/api/no-such-thing'), 404);
  });

  it('when the path tries to climb out, then 404 problem+json', async () => {
    expectProblem(await apiAs(ACME).get('/api/carts/..%2F..%2Fwebhook_endpoints'), 404);
  });

  it('when the body is malformed JSON, then 400 problem+json', async () => {
    const response = await apiAs(ACME).request('POST', '/api/product-sectors', { rawBody: '{"items": [', headers: { 'Content-Type': 'application/json' } });
    expectProblem(response, 400);
    expect(response.json.detail).toBe('The request body is not valid JSON.');
  });

  it('when the method is wrong, then 405 with Allow', async () => {
    const response = await apiAs(ACME).delete('/api/product-sectors');
    expectProblem(response, 405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('when page is not a positive integer, then 400 naming page', async () => {
    for (const page of ['0', 'x', '1.5', '-3']) {
      const response = await apiAs(ACME).get(`/api/product-sectors?page=${page}`);
      expectProblem(response, 400);
      expect(response.json.violations).toEqual([expect.objectContaining({ propertyPath: 'page' })]);
    }
  });

  it('when a valid request id is sent, then it is echoed; otherwise one is made', async () => {
    const echoed = await apiAs(ACME).get('/api/product-sectors', { headers: { 'X-Request-Id': 'partner-trace-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('partner-trace-123');
    const made = await apiAs(ACME).get('/api/product-sectors', { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const unauthenticated = await apiAs().get('/api/product-sectors');
    expect(unauthenticated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when the API description is fetched without a key, then it is served', async () => {
    const response = await apiAs().get('/api/docs.json');
    expect(response.status).toBe(200);
    expect(response.json.openapi).toBe('3.1.0');
    expect(response.json.info.version).toMatch(/^\d{4}\.\d{2}\.\d{2}/);
  });
});
