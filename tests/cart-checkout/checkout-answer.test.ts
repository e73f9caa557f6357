/**
 * The checkout's answer: the deprecation headers of a checkout without Idempotency-Key, and the
 * links it carries.
 */
import { randomUUID } from 'node:crypto';
import { ApiResponse } from '@rental/testkit';
import { Owner, newPartner } from '../case-workflow/support/kit';
import { customer } from '../support/partner-requests';
import { apiAs, sharedStack } from '../support/shared-stack';

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

describe('deprecation headers of a checkout without Idempotency-Key', () => {
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

describe('financeCaseLink of the checkout answer', () => {
  it('when a cart is checked out, then financeCaseLink and quoteLink are URLs under PUBLIC_BASE_URL that the partner can follow', async () => {
    const cart = await owner.api.post('/api/carts', {
      items: [{ productNumber: `LINKS-${randomUUID()}`, productName: 'Laptop', quantity: 1, price: 1000, categorySlug: 'laptops' }],
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
