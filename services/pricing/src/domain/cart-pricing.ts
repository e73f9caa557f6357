import { Cents, divideRoundingHalfUp, percentageOfMilli } from '@rental/money';
import { DomainError, type ProblemCode, Violation, invalidInput, unavailable, validationFailed } from '@rental/problem';
import { CHECKOUT_FINANCING_TYPES, PRINT_PLAN_TYPES } from '@rental/proto';
import type { ArticleType } from './article-type';
import { resolveCategories } from './categories';
import type { Category, PartnerConditions, PartnerProfile } from './model';
import { articleTypesFirst, checkArticleTypes } from './cart-article-types';
import type { CategoryReader, ConditionsReader, HubClient } from './ports';
import { durationRange, factorListOf, isSectorAllowed, preselectedTier } from './conditions';
import { requireConditions } from './calculation';
import { rateOf } from './rates';
import { lookUpSlaFiles } from './sla-files';

/** Click data of one device; prices in ten-thousandths of a euro (click prices go below a cent). */
export interface DeviceClicks {
  baselines: { count: bigint; priceTenThousandths: bigint }[];
}

export interface PricedItemInput {
  position: number;
  productNumber: string;
  quantity: number;
  priceCents: Cents;
  categoryId?: number;
  categorySlug?: string;
  devices: DeviceClicks[];
}

export interface FinancingOption {
  financingType: string;
  duration: number;
  commission: number;
  rentalFactor: string;
  /** the rate for the monthly interval when the partner offers it (with the surcharge), else for its other interval */
  monthlyRateAllInCents: Cents;
}

export interface CartPricing {
  purchasePriceCents: Cents;
  financingOptions: FinancingOption[];
  items: { position: number; totalCents: Cents; financingOptions: FinancingOption[] }[];
  recurringServiceFeeCents: Cents | null;
}

export interface CartPricingDependencies {
  conditions: ConditionsReader;
  categories: CategoryReader;
}

const itemTotal = (item: PricedItemInput): Cents => item.priceCents * BigInt(item.quantity);

function optionsFor(conditions: PartnerConditions, financedCents: Cents, range: { min: number; max: number }, printPlanPossible: boolean): FinancingOption[] {
  // A cart knows no payment interval yet: its options show the monthly one when the partner offers it.
  const paymentInterval = conditions.paymentIntervals.includes('monthly') ? 'monthly' : 'quarterly';
  return CHECKOUT_FINANCING_TYPES.flatMap((financingType) => {
    if (PRINT_PLAN_TYPES.has(financingType) && !printPlanPossible) return [];
    const tier = preselectedTier(conditions, financingType);
    const list = tier === undefined ? undefined : factorListOf(conditions, financingType, tier);
    if (!list || tier === undefined) return [];
    return [...list.entries()]
      .filter(([duration]) => duration >= range.min && duration <= range.max)
      .sort(([a], [b]) => a - b)
      .map(([duration, factorMilli]) => ({
        financingType,
        duration,
        commission: tier,
        rentalFactor: percentageOfMilli(factorMilli),
        monthlyRateAllInCents: rateOf({
          financedCents,
          factorMilli,
          financingType,
          serviceCostCents: null,
          monthlySurchargeCents: conditions.monthlySurchargeCents,
          paymentInterval,
        }).monthlyRateAllInCents,
      }));
  });
}

/** Σ baseline count × baseline price over every device, rounded half up to cents; null without click data. */
export function recurringServiceFee(items: PricedItemInput[]): Cents | null {
  const devices = items.flatMap((item) => item.devices);
  if (devices.length === 0) return null;
  const tenThousandths = devices.flatMap((device) => device.baselines).reduce((sum, line) => sum + line.count * line.priceTenThousandths, 0n);
  return divideRoundingHalfUp(tenThousandths, 100n);
}

/** Financing options of a whole cart and of each item at the partner's preselected tiers (monthly). */
export async function priceCart(items: PricedItemInput[], partnerId: string, deps: CartPricingDependencies): Promise<CartPricing> {
  const resolving = resolveCategories(deps.categories, items).then((resolved) => checkArticleTypes(items, resolved));
  const [conditions, sectors, resolutions] = await Promise.all([requireConditions(deps.conditions, partnerId), deps.conditions.sectors(), resolving]).catch(
    articleTypesFirst(resolving),
  );
  const categories = resolutions.map((resolution) => (resolution.found ? resolution.category : undefined));
  const known = categories.filter((category): category is Category => category !== undefined);
  const printPlanPossible = items.length > 0 && categories.every((category) => category?.hasPrintPlanCapability === true);
  const purchasePriceCents = items.reduce((sum, item) => sum + itemTotal(item), 0n);
  return {
    purchasePriceCents,
    financingOptions: optionsFor(conditions, purchasePriceCents, durationRange(sectors, known), printPlanPossible),
    items: items.map((item, index) => {
      const category = categories[index];
      return {
        position: item.position,
        totalCents: itemTotal(item),
        financingOptions: optionsFor(
          conditions,
          itemTotal(item),
          durationRange(sectors, category ? [category] : []),
          category?.hasPrintPlanCapability === true,
        ),
      };
    }),
    recurringServiceFeeCents: recurringServiceFee(items),
  };
}

export interface CheckoutTermsRequest {
  items: PricedItemInput[];
  financingType: string;
  duration: number;
  paymentInterval: string;
  commission?: number;
  /** null: not given */
  serviceCostCents: Cents | null;
  customSlaFileName?: string;
}

export interface FrozenTerms {
  financingType: string;
  duration: number;
  commission: number;
  paymentInterval: string;
  rentalFactorMilli: number;
  residualValueMilli: number | null;
  purchasePriceCents: Cents;
  /** the parts and the whole of the rate (see Rate) */
  baseRateCents: Cents;
  monthlyRateAllInCents: Cents;
  serviceCostCents: Cents | null;
  surchargeCents: Cents;
  recurringServiceFeeCents: Cents | null;
  productSector: string;
  articleType: ArticleType;
  financingPartnerId: string;
  distributionHubId: string | null;
  customSlaFileName: string | null;
}

export interface CheckoutTermsDependencies extends CartPricingDependencies {
  profileOf(partnerId: string): Promise<PartnerProfile | undefined>;
  hub: HubClient;
}

function rejectBadRequest(code: ProblemCode, detail: string, violations: Violation[] = []): never {
  throw invalidInput(code, detail, violations);
}

async function requireValidSla(name: string | undefined, profile: PartnerProfile | undefined, hub: HubClient): Promise<string> {
  if (!name)
    rejectBadRequest(
      'checkout.custom_sla_required',
      "A rent quote needs customSlaFileName naming one of the partner's custom SLA files (GET /api/sla-files).",
      [{ propertyPath: 'customSlaFileName', code: 'checkout.custom_sla_required', message: 'A rent quote needs a valid custom SLA file.' }],
    );
  const lookup = profile ? await lookUpSlaFiles(profile, hub) : { outcome: 'no_hub' as const };
  if (lookup.outcome === 'hub_unavailable')
    throw unavailable('distribution_hub.unavailable', 'The distribution hub does not answer, so the custom SLA cannot be checked. Retry later.');
  if (lookup.outcome === 'no_hub' || !lookup.files.some((file) => file.fileId === name)) {
    rejectBadRequest('checkout.custom_sla_invalid', `"${name}" is not a custom SLA file of this partner.`, [
      { propertyPath: 'customSlaFileName', code: 'checkout.custom_sla_invalid', message: 'This is not a custom SLA file of the partner.' },
    ]);
  }
  return name;
}

/**
 * Every pricing rule of checkout, checked before anything is created: the specification's 400s
 * (catalog and duration problems) and 422s (terms the partner does not have). Returns the terms
 * frozen on the quote.
 */
export async function freezeCheckoutTerms(request: CheckoutTermsRequest, partnerId: string, deps: CheckoutTermsDependencies): Promise<FrozenTerms> {
  const resolving = resolveCategories(deps.categories, request.items).then((resolved) => checkArticleTypes(request.items, resolved));
  const [conditions, sectors, resolutions, profile] = await Promise.all([
    requireConditions(deps.conditions, partnerId),
    deps.conditions.sectors(),
    resolving,
    deps.profileOf(partnerId),
  ]).catch(articleTypesFirst(resolving));
  const categories: Category[] = [];
  resolutions.forEach((resolution, index) => {
    if (!resolution.found) {
      const detail = resolution.conflicting ? 'categoryId and categorySlug name categories of different sectors' : 'the category id or slug is unknown';
      rejectBadRequest('checkout.unknown_category', `Item ${index + 1}: ${detail}.`, [
        { propertyPath: `items[${index}]`, code: 'checkout.unknown_category', message: detail },
      ]);
    }
    categories.push(resolution.category);
  });
  const disabled = [...new Set(categories.map((category) => category.sector))].filter((sector) => !isSectorAllowed(conditions, sector));
  if (disabled.length) rejectBadRequest('checkout.sector_not_enabled', `Product sector ${disabled.join(', ')} is not enabled for this partner.`);

  if (!conditions.paymentIntervals.includes(request.paymentInterval)) {
    throw validationFailed([
      {
        propertyPath: 'paymentInterval',
        code: 'checkout.payment_interval_not_available',
        message: `Payment interval ${request.paymentInterval} is not available to this partner; available: ${conditions.paymentIntervals.join(', ')}.`,
      },
    ]);
  }
  const printPlan = PRINT_PLAN_TYPES.has(request.financingType);
  if (printPlan) {
    const violations: Violation[] = [];
    categories.forEach((category, index) => {
      if (!category.hasPrintPlanCapability)
        violations.push({
          propertyPath: `items[${index}]`,
          code: 'checkout.print_plan_not_possible',
          message: `Category "${category.slug}" has no Print-Plan capability.`,
        });
    });
    if (request.serviceCostCents !== null)
      violations.push({ propertyPath: 'serviceCost', code: 'checkout.not_allowed_for_print_plan', message: 'serviceCost is not allowed for Print-Plan.' });
    if (request.customSlaFileName)
      violations.push({
        propertyPath: 'customSlaFileName',
        code: 'checkout.not_allowed_for_print_plan',
        message: 'customSlaFileName is not allowed for Print-Plan.',
      });
    if (violations.length) throw validationFailed(violations);
  }
  const tier = request.commission ?? preselectedTier(conditions, request.financingType);
  if (request.commission !== undefined && !factorListOf(conditions, request.financingType, request.commission)) {
    throw validationFailed([
      {
        propertyPath: 'commission',
        code: 'checkout.commission_not_available',
        message: `Commission tier ${request.commission} % is not available to this partner for ${request.financingType}.`,
      },
    ]);
  }
  const range = durationRange(sectors, categories);
  if (request.duration < range.min || request.duration > range.max) {
    rejectBadRequest(
      'checkout.duration_not_allowed',
      `A duration of ${request.duration} months is outside the depreciation range of these products (${range.min} to ${range.max} months).`,
      [{ propertyPath: 'duration', code: 'checkout.duration_not_allowed', message: `Allowed: ${range.min} to ${range.max} months.` }],
    );
  }
  const factorMilli = tier === undefined ? undefined : factorListOf(conditions, request.financingType, tier)?.get(request.duration);
  if (factorMilli === undefined || tier === undefined) {
    rejectBadRequest('checkout.financing_type_not_offered', `Financing type ${request.financingType} is not offered for ${request.duration} months.`, [
      { propertyPath: 'financingType', code: 'checkout.financing_type_not_offered', message: `Not offered for ${request.duration} months.` },
    ]);
  }
  const customSlaFileName =
    request.financingType === 'rent' ? await requireValidSla(request.customSlaFileName, profile, deps.hub) : (request.customSlaFileName ?? null);
  if (!conditions.financingPartnerId) {
    throw new DomainError(
      'rule_violation',
      'partner_financing_not_ready',
      'partner_financing_not_ready: no financing partner is assigned to this partner account yet; the cart stays active and the same request can be retried later.',
      { violations: [] },
    );
  }
  const purchasePriceCents = request.items.reduce((sum, item) => sum + itemTotal(item), 0n);
  const rate = rateOf({
    financedCents: purchasePriceCents,
    factorMilli,
    financingType: request.financingType,
    serviceCostCents: request.serviceCostCents,
    monthlySurchargeCents: conditions.monthlySurchargeCents,
    paymentInterval: request.paymentInterval,
  });
  const sector = (categories[0] as Category).sector;
  return {
    financingType: request.financingType,
    duration: request.duration,
    commission: tier,
    paymentInterval: request.paymentInterval,
    rentalFactorMilli: factorMilli,
    residualValueMilli: conditions.residualValues.get(request.financingType) ?? null,
    purchasePriceCents,
    baseRateCents: rate.baseRateCents,
    monthlyRateAllInCents: rate.monthlyRateAllInCents,
    serviceCostCents: rate.serviceCostCents,
    surchargeCents: rate.surchargeCents,
    recurringServiceFeeCents: printPlan ? recurringServiceFee(request.items) : null,
    productSector: sector,
    articleType: (resolutions[0] as { articleType: ArticleType }).articleType,
    financingPartnerId: conditions.financingPartnerId,
    distributionHubId: conditions.distributionHubId,
    customSlaFileName,
  };
}
