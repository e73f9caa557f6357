import { Cents, amountOfCents, centsOfAmount, milliOfPercentage, percentageOfMilli } from '@rental/money';
import { DomainError, Violation, validationFailed } from '@rental/problem';
import type { Category, PartnerConditions, Offer, CalculationResponse } from './model';
import { durationRange, factorListOf, isSectorAllowed, preselectedTier } from './conditions';
import type { ConditionsReader, FrozenFactorReader } from './ports';
import type { CalculationRequest } from './calculation-request';
import { rateOf } from './rates';

export const CURRENCY = 'EUR';

export interface PricedCalculation {
  response: CalculationResponse;
  productSector: string;
  category: Category | null;
}

export interface CalculationDependencies {
  conditions: ConditionsReader;
  frozenFactors: FrozenFactorReader;
  findCategoryBySlug(slug: string): Promise<Category | undefined>;
  /** whether this deployment is the sandbox */
  sandbox: boolean;
}

export function emptyCalculation(request: CalculationRequest): CalculationResponse {
  return { offers: [], request, currency: CURRENCY, selectedOffer: null };
}

/** The forced failure of the sandbox: the same answer as a real result with zero offers. */
export function calculationNotPossible(extra: Record<string, unknown>): DomainError {
  return new DomainError('internal', 'calculation.not_possible', 'No offer can be calculated for this request (sandbox scenario calculation_not_possible).', {
    extra,
  });
}

function fail(propertyPath: string, code: string, message: string): never {
  throw validationFailed([{ propertyPath, code, message }]);
}

export async function requireConditions(reader: ConditionsReader, partnerId: string): Promise<PartnerConditions> {
  const conditions = await reader.conditionsOf(partnerId);
  // A partner known to the gateway but without conditions in pricing cannot be priced.
  if (!conditions)
    throw new DomainError('rule_violation', 'partner_financing_not_ready', 'partner_financing_not_ready: no conditions are maintained for this partner yet.', {
      violations: [],
    });
  return conditions;
}

function selectOffer(offers: Offer[], request: CalculationRequest): Offer | null {
  const types = request.selectedCalculationTypes ?? [];
  const durations = request.selectedDurations ?? [];
  if (types.length && durations.length) {
    return offers.find((offer) => types.includes(offer.calculationType) && durations.includes(offer.duration)) ?? null;
  }
  return offers.length === 1 ? (offers[0] as Offer) : null;
}

/**
 * Prices a calculation request for a partner under the specification's duration rules. Throws a
 * 422 naming the field for every rule it breaks, and the sandbox's forced failure when asked.
 */
export async function priceCalculation(request: CalculationRequest, partnerId: string, deps: CalculationDependencies): Promise<PricedCalculation> {
  if (request.sandboxScenario && !deps.sandbox) {
    fail('sandboxScenario', 'calculation.validation.sandbox_only', 'sandboxScenario is only available in the sandbox environment.');
  }
  const [conditions, sectors] = await Promise.all([requireConditions(deps.conditions, partnerId), deps.conditions.sectors()]);
  const category = request.categorySlug ? await deps.findCategoryBySlug(request.categorySlug) : undefined;
  if (request.categorySlug && !category)
    fail('categorySlug', 'calculation.validation.unknown_category', `There is no product category "${request.categorySlug}".`);
  if (category && request.productSector && category.sector !== request.productSector) {
    fail(
      'categorySlug',
      'calculation.validation.category_sector_mismatch',
      `Category "${category.slug}" belongs to sector ${category.sector}, not ${request.productSector}.`,
    );
  }
  const productSector = request.productSector ?? category?.sector;
  if (!productSector)
    fail('productSector', 'calculation.validation.sector_not_resolvable', 'The product sector cannot be resolved: give productSector or a categorySlug.');
  if (!isSectorAllowed(conditions, productSector))
    fail('productSector', 'calculation.validation.sector_not_allowed', `Product sector ${productSector} is not enabled for this partner.`);

  const range = durationRange(sectors, category ? [category] : [], productSector);
  const outside = request.durations.filter((duration) => duration < range.min || duration > range.max);
  if (outside.length) {
    fail(
      'durations',
      'calculation.validation.duration_not_allowed',
      `Durations ${outside.join(', ')} are outside the allowed range of ${range.min} to ${range.max} months for this product.`,
    );
  }
  if (request.sandboxScenario === 'calculation_not_possible') throw calculationNotPossible(emptyCalculation(request) as unknown as Record<string, unknown>);

  const terms = pricedTerms(request, conditions);
  if (request.persistedRentalFactor) await requireOwnFactor(request.persistedRentalFactor, terms, partnerId, deps.frozenFactors);
  const offers = buildOffers(request, conditions, terms);
  if (request.commission !== undefined && !request.calculationTypes.some((type) => factorListOf(conditions, type, request.commission as number))) {
    fail(
      'commission',
      'calculation.validation.commission_not_available',
      `Commission tier ${request.commission} % is not available to this partner for the requested calculation types.`,
    );
  }
  if (offers.length === 0) {
    fail(
      'durations',
      'calculation.validation.duration_not_available',
      `None of the durations ${request.durations.join(', ')} is available for the requested calculation types.`,
    );
  }
  return {
    response: { offers, request, currency: CURRENCY, selectedOffer: selectOffer(offers, request) },
    productSector,
    category: category ?? null,
  };
}

/** One calculation type and duration a request prices, with the live factor of its tier's list. */
export interface PricedTerm {
  calculationType: string;
  duration: number;
  tier: number;
  liveFactorMilli: number;
}

/** A term a persisted factor would price; no live factor when the partner's list lacks the term. */
export type FactorTerm = Pick<PricedTerm, 'calculationType' | 'duration'> & { liveFactorMilli: number | undefined };

/**
 * The terms a request prices: for each calculation type its named or preselected tier, for each
 * requested duration on that tier's list one term (durations missing from the list give none).
 */
function pricedTerms(request: Pick<CalculationRequest, 'calculationTypes' | 'durations' | 'commission'>, conditions: PartnerConditions): PricedTerm[] {
  const terms: PricedTerm[] = [];
  for (const calculationType of new Set(request.calculationTypes)) {
    const tier = request.commission ?? preselectedTier(conditions, calculationType);
    const list = tier === undefined ? undefined : factorListOf(conditions, calculationType, tier);
    if (!list || tier === undefined) continue;
    for (const duration of new Set(request.durations)) {
      const liveFactorMilli = list.get(duration);
      if (liveFactorMilli !== undefined) terms.push({ calculationType, duration, tier, liveFactorMilli });
    }
  }
  return terms;
}

/**
 * The terms a persisted factor may not price. The factor is "the frozen rental factor of a source
 * quote", so it replaces the platform's price for a term only when it is that term's live factor
 * (same type, duration and tier) or frozen on one of the partner's own quotes of the same
 * calculation type and duration; a factor of another type or duration would price this one at
 * that term's rate (a 60-month factor on a 12-month leasing is a fifth of the price).
 */
export async function termsRefusingFactor(
  partnerId: string,
  factorMilli: number,
  terms: FactorTerm[],
  frozenFactors: FrozenFactorReader,
): Promise<FactorTerm[]> {
  const notLive = terms.filter((term) => term.liveFactorMilli !== factorMilli);
  const factor = percentageOfMilli(factorMilli);
  const frozen = await Promise.all(
    notLive.map((term) => frozenFactors.isFrozenOnQuote(partnerId, factor, { calculationType: term.calculationType, duration: term.duration })),
  );
  return notLive.filter((_term, index) => !frozen[index]);
}

/** "leasing over 12 months, rent over 36 months" */
export const termsText = (terms: FactorTerm[]) => terms.map((term) => `${term.calculationType} over ${term.duration} months`).join(', ');

async function requireOwnFactor(factor: string, terms: PricedTerm[], partnerId: string, frozenFactors: FrozenFactorReader): Promise<void> {
  const refused = await termsRefusingFactor(partnerId, milliOfPercentage(factor), terms, frozenFactors);
  if (refused.length === 0) return;
  fail(
    'persistedRentalFactor',
    'calculation.validation.rental_factor_not_frozen',
    `Rental factor ${factor} is neither the live factor nor frozen on one of your quotes for ${termsText(refused)}; send the factor of a quote of the same calculation type and duration, or none.`,
  );
}

/** Financed amount = acquisitionCost + installationCost, null counting as 0. */
export function financedAmountOf(request: Pick<CalculationRequest, 'acquisitionCost' | 'installationCost'>): Cents {
  return centsOfAmount(request.acquisitionCost) + centsOfAmount(request.installationCost);
}

/**
 * The offers of a request: one per priced term, priced with the persisted factor when one is
 * given (the caller checked that it may price every term), else with the list's.
 */
function buildOffers(request: CalculationRequest, conditions: PartnerConditions, terms: PricedTerm[]): Offer[] {
  const financedCents = financedAmountOf(request);
  const serviceCostCents = request.serviceCost === null || request.serviceCost === undefined ? null : centsOfAmount(request.serviceCost);
  const persistedFactor = request.persistedRentalFactor ? milliOfPercentage(request.persistedRentalFactor) : undefined;
  return terms.map(({ calculationType, duration, tier, liveFactorMilli }) => {
    const factorMilli = persistedFactor ?? liveFactorMilli;
    const residual = conditions.residualValues.get(calculationType);
    const rate = rateOf({
      financedCents,
      factorMilli,
      financingType: calculationType,
      serviceCostCents,
      monthlySurchargeCents: conditions.monthlySurchargeCents,
      paymentInterval: request.paymentInterval,
    });
    return {
      duration,
      calculationType,
      rate: amountOfCents(rate.monthlyRateAllInCents),
      rentalFactor: percentageOfMilli(factorMilli),
      commission: tier,
      residualValue: residual === undefined ? null : percentageOfMilli(residual),
      paymentInterval: request.paymentInterval,
    };
  });
}

/** Violations of one bulk item, or of a whole request, from a thrown domain error. */
export function violationsOf(error: DomainError): Violation[] {
  if (error.violations?.length) return error.violations;
  return [{ propertyPath: '', code: error.code, message: error.detail }];
}
