import { Cents, divideRoundingHalfUp } from '@rental/money';
import { SERVICE_COST_FINANCING_TYPE } from '@rental/proto';

/** What a rate is made from. */
export interface RateTerms {
  /** acquisition plus installation cost; for a cart, Σ price × quantity */
  financedCents: Cents;
  /** the rental factor: thousandths of a percent of the financed amount per month */
  factorMilli: number;
  financingType: string;
  /** the monthly service cost the caller gives (null: none); only rent adds it */
  serviceCostCents: Cents | null;
  /** the partner's monthly surcharge; only the monthly payment interval adds it */
  monthlySurchargeCents: Cents;
  paymentInterval: string;
}

/** A rate and its parts, all per month whatever the payment interval. */
export interface Rate {
  /** financed amount × factor / 100, rounded half up to cents: a quote's monthlyCosts */
  baseRateCents: Cents;
  /** the service cost in the rate: the given one for rent, else null */
  serviceCostCents: Cents | null;
  /** the surcharge in the rate: the partner's monthly surcharge for the monthly interval, else 0 */
  surchargeCents: Cents;
  /** base rate + service cost + surcharge: an offer's and a cart option's rate, a quote's monthlyRateAllIn */
  monthlyRateAllInCents: Cents;
}

/**
 * The product's pricing rule (docs/architecture.md, "Pricing model"), and the only place that
 * turns an amount and a factor into a rate: estimate, calculate, bulk, cart options, checkout and
 * the stored calculations a quote request freezes all ask it.
 */
export function rateOf(terms: RateTerms): Rate {
  const baseRateCents = divideRoundingHalfUp(terms.financedCents * BigInt(terms.factorMilli), 100_000n);
  const serviceCostCents = terms.financingType === SERVICE_COST_FINANCING_TYPE ? terms.serviceCostCents : null;
  const surchargeCents = terms.paymentInterval === 'monthly' ? terms.monthlySurchargeCents : 0n;
  return { baseRateCents, serviceCostCents, surchargeCents, monthlyRateAllInCents: baseRateCents + (serviceCostCents ?? 0n) + surchargeCents };
}
