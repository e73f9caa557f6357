/**
 * Issue 27 item 2: `persistedRentalFactor` is "the frozen rental factor of a source quote". It
 * prices a term only when it is that term's live factor (type, duration and tier) or frozen on
 * one of the partner's own quotes of the same calculation type and duration; the outside review
 * priced a 12-month leasing of 10,000 with a 60-month factor at 180 a month instead of 895.
 */
import { sampleRequester as person } from '@rental/testkit';
import { createCaseViaGrpc } from '../support/cases';
import { Owner, newPartner, query } from '../case-workflow/support/kit';
import { expectViolationAt } from '../support/partner-requests';
import { sharedStack } from '../support/shared-stack';
import { expectFactorRefused, expectStoredFactorRefused } from './support/rental-factor';

const leasing12 = { durations: [12], calculationTypes: ['leasing'], acquisitionCost: 10_000, productSector: 'IT_AND_OFFICE_EQUIPMENT' };

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

/** The frozen quote a factor may come from: a checkout case of the partner with these terms. */
async function quoteWithFactor(rentalFactor: string, calculationType: string, duration: number): Promise<void> {
  await createCaseViaGrpc(sharedStack(), owner.partner.id, { submitFinancing: false, terms: { rentalFactor, calculationType, duration } });
}

describe('a persisted rental factor of another calculation type or duration', () => {
  it.each([
    ['1.800', "the partner's 60-month partial-amortisation factor"],
    ['2.040', "the partner's 60-month leasing factor"],
  ])('when a 12-month leasing of 10,000 is estimated, calculated or bulk-estimated with %s (%s), then 422 at persistedRentalFactor', async (factor) => {
    await expectFactorRefused(owner.api, leasing12, factor);
  });

  it("when the factor is frozen on one of the partner's quotes of another duration, then a 12-month leasing priced with it is 422", async () => {
    await quoteWithFactor('1.777', 'leasing', 60);
    const response = await owner.api.post('/api/calculate/estimate', { ...leasing12, persistedRentalFactor: '1.777' });
    expectViolationAt(response, 422, 'persistedRentalFactor', 'calculation.validation.rental_factor_not_frozen');
    expect(response.json.violations[0].message).toBe(
      'Rental factor 1.777 is neither the live factor nor frozen on one of your quotes for leasing over 12 months; send the factor of a quote of the same calculation type and duration, or none.',
    );
  });

  it("when the factor is frozen on one of the partner's quotes of another calculation type, then a leasing of the same duration priced with it is 422", async () => {
    await quoteWithFactor('8.777', 'rent', 12);
    expectViolationAt(
      await owner.api.post('/api/calculate/estimate', { ...leasing12, persistedRentalFactor: '8.777' }),
      422,
      'persistedRentalFactor',
      'calculation.validation.rental_factor_not_frozen',
    );
  });
});

describe('a persisted rental factor of the same term', () => {
  it('when the factor is the live factor of a 12-month leasing, then it prices 895.00 a month (897.50 with the surcharge), the same as without it', async () => {
    const live = await owner.api.post('/api/calculate/estimate', leasing12);
    const persisted = await owner.api.post('/api/calculate/estimate', { ...leasing12, persistedRentalFactor: '8.95' });
    expect(persisted.status).toBe(201);
    expect(persisted.json.offers).toEqual([expect.objectContaining({ calculationType: 'leasing', duration: 12, rentalFactor: '8.950', rate: 897.5 })]);
    expect(persisted.json.offers).toEqual(live.json.offers);
  });

  it("when the factor is frozen on one of the partner's 12-month leasing quotes, then estimate, calculate and bulk price with it and a quote request files it", async () => {
    await quoteWithFactor('8.777', 'leasing', 12);
    const expected = [expect.objectContaining({ calculationType: 'leasing', duration: 12, rentalFactor: '8.777', rate: 880.2 })];
    expect((await owner.api.post('/api/calculate/estimate', { ...leasing12, persistedRentalFactor: '8.777' })).json.offers).toEqual(expected);
    const bulk = await owner.api.post('/api/calculate/estimate/bulk', { items: [leasing12, { ...leasing12, persistedRentalFactor: '8.777' }] });
    expect(bulk.json.results.map((result: { success: boolean }) => result.success)).toEqual([true, true]);
    expect(bulk.json.results[1].response.offers).toEqual(expected);

    const calculation = await owner.api.post('/api/calculate', { ...leasing12, persistedRentalFactor: '8.777' });
    expect(calculation.status).toBe(201);
    expect(calculation.json.response.offers).toEqual(expected);
    const filed = await owner.api.post('/api/quote_requests', { ...person, calculation: calculation.json.uri });
    expect(filed.status).toBe(201);
    const [quote] = await query('SELECT rental_factor, calculation_type, duration, monthly_costs_cents FROM quotes WHERE quote_request_id = $1', [
      String(filed.json.id),
    ]);
    expect(quote).toEqual({ rental_factor: '8.777', calculation_type: 'leasing', duration: 12, monthly_costs_cents: '87770' });
  });
});

describe('a stored calculation priced with a factor of another term', () => {
  it('when a calculation stored before the rule froze 1.800 into a 12-month leasing, then a quote request on it is 422 at calculation and nothing is filed', async () => {
    await expectStoredFactorRefused(owner.api, leasing12, '1.800');
  });
});
