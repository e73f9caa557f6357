import fc from 'fast-check';
import { fixturePartnerKey } from '@rental/testkit';
import { apiAs } from '../support/shared-stack';

const acme = apiAs(fixturePartnerKey('acme'));

const anyJson = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double(), fc.string(), fc.array(fc.integer(), { maxLength: 3 }));
const plausible = fc.record(
  {
    durations: fc.oneof(fc.array(fc.integer({ min: -5, max: 130 }), { maxLength: 5 }), anyJson),
    calculationTypes: fc.oneof(fc.subarray(['leasing', 'rent', 'rent_to_own', 'print_plan', 'partial_amortisation_leasing', 'bogus']), anyJson),
    acquisitionCost: fc.oneof(fc.double({ min: -10, max: 1e7 }), fc.integer({ min: 0, max: 1e6 }), anyJson),
    serviceCost: fc.oneof(fc.integer({ min: 0, max: 500 }), anyJson),
    installationCost: fc.oneof(fc.integer({ min: 0, max: 500 }), anyJson),
    paymentInterval: fc.oneof(fc.constantFrom('monthly', 'quarterly', 'weekly'), anyJson),
    productSector: fc.oneof(fc.constantFrom('IT_AND_OFFICE_EQUIPMENT', 'MEDICAL_DEVICES', 'NOPE'), anyJson),
    categorySlug: fc.oneof(fc.constantFrom('laptops', 'servers', 'nope'), anyJson),
    commission: fc.oneof(fc.integer({ min: -1, max: 10 }), anyJson),
    persistedRentalFactor: fc.oneof(fc.constantFrom('3.180', '1e3', ''), anyJson),
  },
  { requiredKeys: [] },
);

describe('calculation under random bodies', () => {
  it('when any body is sent, then the answer is 201 or a problem whose 422 violations all name a propertyPath, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(plausible, async (body) => {
        const response = await acme.post('/api/calculate/estimate', body);
        expect([201, 422]).toContain(response.status);
        if (response.status === 422) {
          expect(response.contentType).toBe('application/problem+json; charset=utf-8');
          expect(response.json.violations.length).toBeGreaterThan(0);
          for (const violation of response.json.violations) expect(typeof violation.propertyPath).toBe('string');
          expect(response.json.violations.some((violation: { propertyPath: string }) => violation.propertyPath.length > 0)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
