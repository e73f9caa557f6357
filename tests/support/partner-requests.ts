/**
 * Bodies and checks that area tests over the shared stack share: a leasing calculation, a
 * customer and a quote request's person, a checked-out case, a filed quote request, a link sent
 * to a customer, and the check of one violation.
 */
import { randomUUID } from 'node:crypto';
import { ApiClient, ApiResponse, sampleCustomer, sampleRequester } from '@rental/testkit';
import type { Owner } from '../case-workflow/support/kit';
import { quoteInProgress, tokenOf } from '../customer/support/customer-kit';
import { sharedStack } from './shared-stack';

export const PROBLEM = 'application/problem+json; charset=utf-8';
export const leasing36 = { durations: [36], calculationTypes: ['leasing'], acquisitionCost: 1000, productSector: 'IT_AND_OFFICE_EQUIPMENT' };
/** The sample customer with the phone and VAT id a checkout may carry. */
export const customer = { ...sampleCustomer, phone: '+4930123', vatId: 'DE123456789' };
/** The person of a quote request. */
export const person = sampleRequester;

export function expectViolationAt(response: ApiResponse, status: number, propertyPath: string, code: string): void {
  expect([response.status, response.contentType]).toEqual([status, PROBLEM]);
  expect(response.json.violations).toEqual([expect.objectContaining({ propertyPath, code })]);
}

export async function checkedOutCase(api: ApiClient): Promise<{ caseId: string; quoteId: string }> {
  const cart = await api.post('/api/carts', {
    items: [{ productNumber: `CHECKOUT-${randomUUID()}`, productName: 'Laptop', quantity: 1, price: 1000, categorySlug: 'laptops' }],
  });
  expect(cart.status).toBe(201);
  const checkout = await api.post(
    `/api/carts/${cart.json.cartId}/checkout`,
    { duration: 36, financingType: 'leasing', customer },
    { headers: { 'Idempotency-Key': randomUUID() } },
  );
  expect(checkout.status).toBe(201);
  return { caseId: checkout.json.financeCaseId, quoteId: checkout.json.quoteId };
}

export async function filedQuoteRequest(api: ApiClient): Promise<ApiResponse> {
  const calculation = await api.post('/api/calculate', leasing36);
  expect(calculation.status).toBe(201);
  const filed = await api.post('/api/quote_requests', { ...person, calculation: calculation.json.uri });
  expect(filed.status).toBe(201);
  return filed;
}

/** A link sent to the customer of a new case of the owner: its token and case. */
export async function sentLink(owner: Owner): Promise<{ caseId: string; token: string }> {
  const { caseId } = await quoteInProgress(owner, sharedStack());
  const sent = await owner.api.post(`/api/financing_cases/${caseId}/send-to-customer`, {});
  expect(sent.status).toBe(200);
  return { caseId, token: tokenOf(sent.json.customerUrl) };
}
