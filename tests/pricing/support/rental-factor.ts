/**
 * The two refusals of a persisted rental factor the partner may not use, checked the same way for
 * every term: when it prices a request, and when it sits in a calculation stored before the rule.
 */
import type { ApiClient } from '@rental/testkit';
import { query } from '../../case-workflow/support/kit';
import { expectViolationAt, person } from '../../support/partner-requests';

type Calculation = Record<string, unknown>;

/** Estimate and calculate answer 422 at persistedRentalFactor; a bulk estimate fails that item alone. */
export async function expectFactorRefused(api: ApiClient, calculation: Calculation, factor: string): Promise<void> {
  for (const path of ['/api/calculate/estimate', '/api/calculate']) {
    const response = await api.post(path, { ...calculation, persistedRentalFactor: factor });
    expectViolationAt(response, 422, 'persistedRentalFactor', 'calculation.validation.rental_factor_not_frozen');
  }
  const bulk = await api.post('/api/calculate/estimate/bulk', { items: [calculation, { ...calculation, persistedRentalFactor: factor }] });
  expect(bulk.status).toBe(200);
  expect(bulk.json.results.map((result: { success: boolean }) => result.success)).toEqual([true, false]);
  expect(bulk.json.results[1].error).toEqual([
    expect.objectContaining({ propertyPath: 'persistedRentalFactor', code: 'calculation.validation.rental_factor_not_frozen' }),
  ]);
}

/**
 * A calculation stored with `factor` in its request and first offer (as one priced before the
 * rule): a quote request on it is 422 at calculation, and the partner's quote requests stay as they were.
 */
export async function expectStoredFactorRefused(api: ApiClient, calculation: Calculation, factor: string): Promise<void> {
  const stored = await api.post('/api/calculate', calculation);
  await query(
    `UPDATE pricing.calculations SET response = jsonb_set(jsonb_set(response, '{request,persistedRentalFactor}', to_jsonb($2::text)), '{offers,0,rentalFactor}', to_jsonb($2::text)) WHERE id = $1`,
    [stored.json.id, factor],
  );
  const before = await api.get('/api/quote_requests');
  const response = await api.post('/api/quote_requests', { ...person, calculation: stored.json.uri });
  expectViolationAt(response, 422, 'calculation', 'quote_request.rental_factor_not_frozen');
  expect((await api.get('/api/quote_requests')).json).toEqual(before.json);
}
