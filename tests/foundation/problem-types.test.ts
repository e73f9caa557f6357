import { PROBLEM_CATALOGUE } from '@rental/proto';
import { fixturePartnerKey } from '@rental/testkit';
import { apiAs, sharedStack } from '../support/shared-stack';

// Every problem's `type` opens a page that says what it means and how to fix it; its `title` is
// the problem's own words and `instance` names the request. That every code thrown is catalogued
// is tsc's to check: DomainError and its helpers take only the catalogue's codes (proto/src/problems.test.ts).

describe('problem types', () => {
  it("when a service answers a problem, then its type opens the page of that type, its title is the type's own and instance names the request", async () => {
    const response = await apiAs(fixturePartnerKey('acme')).get('/api/financing_cases/01JZZZZZZZZZZZZZZZZZZZZZZZ');

    const requestId = response.headers.get('x-request-id');
    expect([response.status, response.contentType]).toEqual([404, 'application/problem+json; charset=utf-8']);
    expect(response.json).toEqual({
      type: `${sharedStack().gatewayUrl}/problems/financing_case.not_found`,
      title: 'Financing case not found',
      status: 404,
      detail: 'No financing case 01JZZZZZZZZZZZZZZZZZZZZZZZ.',
      instance: `urn:request:${requestId}`,
    });
    const page = await fetch(response.json.type);
    const html = await page.text();
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(html).toContain('<h1>Financing case not found</h1>');
    expect(html).toContain(`<p>${PROBLEM_CATALOGUE['financing_case.not_found'].meaning}</p>`);
  });

  it('when the gateway answers a problem by itself, then it carries the same members', async () => {
    const response = await apiAs('sbx_not_a_key').get('/api/product-sectors');

    expect(response.json).toEqual({
      type: `${sharedStack().gatewayUrl}/problems/auth.invalid_api_key`,
      title: 'API key missing or invalid',
      status: 401,
      detail: 'A valid X-Api-Key header is required.',
      instance: `urn:request:${response.headers.get('x-request-id')}`,
    });
  });

  it('when a 422 is answered, then its violations stay as they were beside title and instance', async () => {
    const response = await apiAs(fixturePartnerKey('acme')).post('/api/carts', {
      items: [{ productNumber: 'P-1', productName: 'Laptop', quantity: 'two', price: 1000, categorySlug: 'laptops' }],
    });

    expect(response.json).toEqual({
      type: `${sharedStack().gatewayUrl}/problems/validation_failed`,
      title: 'Request validation failed',
      status: 422,
      detail: 'items[0].quantity: This value should be of type number.',
      instance: `urn:request:${response.headers.get('x-request-id')}`,
      violations: [{ propertyPath: 'items[0].quantity', code: 'validation.type', message: 'This value should be of type number.' }],
    });
  });

  it('when /problems is opened, then it lists every type with a link to its page, without an API key', async () => {
    const response = await fetch(`${sharedStack().gatewayUrl}/problems`);
    const html = await response.text();

    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    const linked = [...html.matchAll(/<a href="\/problems\/([^"]+)">/g)].map((match) => decodeURIComponent(match[1]!));
    expect(linked).toEqual(Object.keys(PROBLEM_CATALOGUE).sort((a, b) => a.localeCompare(b)));
  });

  it('when the page of an unknown type is opened, then it is a 404 problem', async () => {
    const response = await apiAs().get('/problems/no.such_problem');

    expect([response.status, response.json.type, response.json.title]).toEqual([
      404,
      `${sharedStack().gatewayUrl}/problems/route.not_found`,
      'No endpoint at this path',
    ]);
  });
});
