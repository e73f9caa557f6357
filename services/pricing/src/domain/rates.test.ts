import { baseMonthlyRate, monthlyRate } from './rates';

describe('monthly rate', () => {
  it('when acme leases 1000.00 for 36 months at 3.180 %, then the base rate is 31.80 and 34.30 with the monthly surcharge', () => {
    expect(baseMonthlyRate(100_000n, 3180)).toBe(3180n);
    expect(monthlyRate({ financedCents: 100_000n, factorMilli: 3180, surchargeCents: 250n })).toBe(3430n);
  });

  it('when the product ends in half a cent, then it rounds up', () => {
    // 1234.50 × 2.460 % = 30.3687 → 30.37; 50.00 × 4.610 % = 2.305 → 2.31
    expect(baseMonthlyRate(123_450n, 2460)).toBe(3037n);
    expect(baseMonthlyRate(5_000n, 4610)).toBe(231n);
  });

  it('when rent carries a service cost, then it is added once per month', () => {
    expect(monthlyRate({ financedCents: 100_000n, factorMilli: 3400, serviceCents: 1000n })).toBe(4400n);
  });
});
