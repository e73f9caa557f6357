import { ulid } from '@rental/ids';
import { Cents, centsOfAmount, milliOfPercentage } from '@rental/money';
import { notFound, validationFailed } from '@rental/problem';
import { CalculationDependencies, financedAmountOf, priceCalculation, requireConditions, termsRefusingFactor, termsText } from './calculation';
import type { Offer, StoredCalculation } from './model';
import { factorListOf } from './conditions';
import type { CalculationStore, ConditionsReader, FrozenFactorReader } from './ports';
import type { CalculationRequest } from './calculation-request';
import { rateOf } from './rates';

/** POST /api/calculate: prices and keeps the calculation, so a quote request can refer to it. */
export async function calculateAndStore(
  request: CalculationRequest,
  partnerId: string,
  deps: CalculationDependencies & { store: CalculationStore },
): Promise<StoredCalculation> {
  const priced = await priceCalculation(request, partnerId, deps);
  const calculation: StoredCalculation = {
    id: ulid(),
    partnerId,
    createdAt: new Date().toISOString(),
    productSector: priced.productSector,
    category: priced.category ? { id: priced.category.id, slug: priced.category.slug, name: priced.category.name } : null,
    response: priced.response,
  };
  await deps.store.save(calculation);
  return calculation;
}

export async function findCalculation(store: CalculationStore, partnerId: string, id: string): Promise<StoredCalculation> {
  const calculation = await store.find(partnerId, id);
  if (!calculation) throw notFound('calculation.not_found', `No calculation ${id}.`);
  return calculation;
}

export interface QuotableCalculationDependencies {
  store: CalculationStore;
  conditions: ConditionsReader;
  frozenFactors: FrozenFactorReader;
}

/**
 * A calculation a quote request may freeze: one priced with a persisted factor may become a quote
 * only while every offer's factor is that offer's live factor (same type, duration and tier) or
 * frozen on one of the partner's quotes of the same type and duration, the rule a new calculation
 * meets; one stored before that rule (any factor of the partner's) is refused.
 */
export async function findQuotableCalculation(deps: QuotableCalculationDependencies, partnerId: string, id: string): Promise<StoredCalculation> {
  const calculation = await findCalculation(deps.store, partnerId, id);
  const factor = calculation.response.request.persistedRentalFactor;
  if (!factor) return calculation;
  const conditions = await requireConditions(deps.conditions, partnerId);
  const terms = calculation.response.offers.map((offer) => ({
    calculationType: offer.calculationType,
    duration: offer.duration,
    liveFactorMilli: factorListOf(conditions, offer.calculationType, offer.commission)?.get(offer.duration),
  }));
  const refused = await termsRefusingFactor(partnerId, milliOfPercentage(factor), terms, deps.frozenFactors);
  if (refused.length > 0) {
    throw validationFailed([
      {
        propertyPath: 'calculation',
        code: 'quote_request.rental_factor_not_frozen',
        message: `The calculation was priced with rental factor ${factor}, which is neither the live factor nor frozen on one of your quotes for ${termsText(refused)}; calculate again.`,
      },
    ]);
  }
  return calculation;
}

/** An offer of a stored calculation with both rates a quote freezes. */
export interface QuotableOffer extends Offer {
  baseRateCents: Cents;
  monthlyRateAllInCents: Cents;
}

/**
 * The offers of a stored calculation as a quote takes them: the rate the partner was shown as
 * monthlyRateAllIn, and the base rate (the quote's monthlyCosts) from the stored amounts and factor.
 * The surcharge of that day is not stored and plays no part in the base rate.
 */
export function quotableOffers(calculation: StoredCalculation): QuotableOffer[] {
  const { request, offers } = calculation.response;
  const financedCents = financedAmountOf(request);
  return offers.map((offer) => ({
    ...offer,
    baseRateCents: rateOf({
      financedCents,
      factorMilli: milliOfPercentage(offer.rentalFactor),
      financingType: offer.calculationType,
      serviceCostCents: null,
      monthlySurchargeCents: 0n,
      paymentInterval: request.paymentInterval,
    }).baseRateCents,
    monthlyRateAllInCents: centsOfAmount(offer.rate),
  }));
}
