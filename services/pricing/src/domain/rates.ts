import { Cents, divideRoundingHalfUp } from './money';

export interface RateInput {
  financedCents: Cents;
  /** thousandths of a percent of the financed amount per month */
  factorMilli: number;
  /** added for rent when given */
  serviceCents?: Cents;
  /** added when the payment interval is monthly */
  surchargeCents?: Cents;
}

/** financed amount × factor / 100, rounded half up to cents (the product's pricing rule). */
export function baseMonthlyRate(financedCents: Cents, factorMilli: number): Cents {
  return divideRoundingHalfUp(financedCents * BigInt(factorMilli), 100_000n);
}

/** The monthly rate of an offer; `quarterly` adds no surcharge but the rate stays monthly. */
export function monthlyRate(input: RateInput): Cents {
  return baseMonthlyRate(input.financedCents, input.factorMilli) + (input.serviceCents ?? 0n) + (input.surchargeCents ?? 0n);
}
