import type { ServiceBinding } from '@rental/grpc';
import { unaryHandlers } from '@rental/grpc';
import type { Logger } from '@rental/logger';
import { Cents, centsOfAmount, centsOfDecimal, decimalOfCents, percentageOfMilli, scaledOfDecimal } from '@rental/money';
import { loadPricingPackage } from '@rental/proto';
import type { pricing } from '@rental/proto';
import { mapDatabaseError } from '@rental/service-host';
import { invalidInput, notFound, parsedAmount } from '@rental/problem';
import {
  CartPricingDependencies,
  CheckoutTermsDependencies,
  DeviceClicks,
  FinancingOption,
  PricedItemInput,
  freezeCheckoutTerms,
  priceCart,
} from '../../domain/cart-pricing';
import { resolveCategories } from '../../domain/categories';
import type { CalculationStore, CategoryReader, FrozenFactorReader, PartnerProfileReader } from '../../domain/ports';
import { financedAmountOf } from '../../domain/calculation';
import { findQuotableCalculation, quotableOffers } from '../../domain/stored-calculation';
import { type PartnerConditionsStore, partnerConditionsOf, replacePartnerConditions } from '../../domain/partner-conditions';

function parsedConditions(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalidInput('partner_access.invalid_json', 'conditions_json must be a JSON object.');
  }
}

export interface PricingRpcDependencies {
  categories: CategoryReader;
  partners: PartnerProfileReader;
  cartPricing: CartPricingDependencies;
  checkoutTerms: CheckoutTermsDependencies;
  calculations: CalculationStore;
  frozenFactors: FrozenFactorReader;
  conditionsAdmin: PartnerConditionsStore;
}

const DEVICE_LINES = [
  ['bwBaselineCount', 'bwBaselinePrice'],
  ['colorBaselineCount', 'colorBaselinePrice'],
  ['scanBaselineCount', 'scanBaselinePrice'],
] as const;

const parsed = <T>(read: () => T, field: string): T => parsedAmount('pricing.invalid_amount', field, read);

function toItems(items: pricing.CartItem__Output[]): PricedItemInput[] {
  return items.map((item) => ({
    position: item.position,
    productNumber: item.productNumber,
    quantity: item.quantity,
    priceCents: parsed(() => centsOfDecimal(item.price) ?? 0n, 'price'),
    categoryId: item.categoryId || undefined,
    categorySlug: item.categorySlug || undefined,
    devices: item.devices.map((device): DeviceClicks => ({
      baselines: DEVICE_LINES.map(([count, price]) => ({
        count: parsed(() => scaledOfDecimal(device[count], 0) ?? 0n, count),
        priceTenThousandths: parsed(() => scaledOfDecimal(device[price], 4) ?? 0n, price),
      })),
    })),
  }));
}

const optionMessage = (option: FinancingOption): pricing.FinancingOption => ({
  financingType: option.financingType,
  duration: option.duration,
  commission: option.commission,
  monthlyRateAllIn: decimalOfCents(option.monthlyRateAllInCents),
  rentalFactor: option.rentalFactor,
});

const optionalDecimal = (cents: Cents | null) => decimalOfCents(cents) ?? '';
const optionalAmount = (amount: number | null | undefined) => optionalDecimal(amount === null || amount === undefined ? null : centsOfAmount(amount));

/** The internal pricing calls; each adapts a message to a use case and back. */
export function pricingGrpcService(deps: PricingRpcDependencies, log: Logger): ServiceBinding {
  const mappers = [mapDatabaseError];
  const implementation = unaryHandlers<pricing.PricingServiceHandlers>(log, mappers, {
    ResolveCategories: async (request) => {
      const resolutions = await resolveCategories(
        deps.categories,
        request.items.map((item) => ({
          categoryId: item.categoryId || undefined,
          categorySlug: item.categorySlug || undefined,
        })),
      );
      return {
        items: resolutions.map((resolution) =>
          resolution.found
            ? {
                found: true,
                conflicting: false,
                categoryId: resolution.category.id,
                slug: resolution.category.slug,
                name: resolution.category.name,
                productSector: resolution.category.sector,
                articleType: resolution.articleType,
                hasPrintPlanCapability: resolution.category.hasPrintPlanCapability,
              }
            : { found: false, conflicting: resolution.conflicting },
        ),
      };
    },
    PriceCart: async (request, { partnerId }) => {
      const priced = await priceCart(toItems(request.items), partnerId, deps.cartPricing);
      return {
        purchasePrice: decimalOfCents(priced.purchasePriceCents),
        financingOptions: priced.financingOptions.map(optionMessage),
        items: priced.items.map((item) => ({
          position: item.position,
          total: decimalOfCents(item.totalCents),
          financingOptions: item.financingOptions.map(optionMessage),
        })),
        recurringServiceFee: optionalDecimal(priced.recurringServiceFeeCents),
      };
    },
    FreezeCheckoutTerms: async (request, { partnerId }) => {
      const terms = await freezeCheckoutTerms(
        {
          items: toItems(request.items),
          financingType: request.financingType,
          duration: request.duration,
          paymentInterval: request.paymentInterval || 'monthly',
          commission: request.hasCommission ? request.commission : undefined,
          serviceCostCents: parsed(() => centsOfDecimal(request.serviceCost), 'serviceCost'),
          customSlaFileName: request.customSlaFileName || undefined,
        },
        partnerId,
        deps.checkoutTerms,
      );
      return {
        financingType: terms.financingType,
        duration: terms.duration,
        commission: terms.commission,
        paymentInterval: terms.paymentInterval,
        rentalFactor: percentageOfMilli(terms.rentalFactorMilli),
        residualValue: terms.residualValueMilli === null ? '' : percentageOfMilli(terms.residualValueMilli),
        purchasePrice: decimalOfCents(terms.purchasePriceCents),
        baseRate: decimalOfCents(terms.baseRateCents),
        monthlyRateAllIn: decimalOfCents(terms.monthlyRateAllInCents),
        serviceCost: optionalDecimal(terms.serviceCostCents),
        surcharge: decimalOfCents(terms.surchargeCents),
        recurringServiceFee: optionalDecimal(terms.recurringServiceFeeCents),
        productSector: terms.productSector,
        financingPartnerId: terms.financingPartnerId,
        distributionHubId: terms.distributionHubId ?? '',
        customSlaFileName: terms.customSlaFileName ?? '',
      };
    },
    GetCalculation: async (request, { partnerId }) => {
      const calculation = await findQuotableCalculation(
        { store: deps.calculations, conditions: deps.cartPricing.conditions, frozenFactors: deps.frozenFactors },
        partnerId,
        request.calculationId,
      );
      const calculationRequest = calculation.response.request;
      return {
        id: calculation.id,
        partnerId: calculation.partnerId,
        createdAt: calculation.createdAt,
        productSector: calculation.productSector,
        categorySlug: calculation.category?.slug ?? '',
        paymentInterval: calculationRequest.paymentInterval,
        acquisitionCost: optionalAmount(calculationRequest.acquisitionCost),
        installationCost: optionalAmount(calculationRequest.installationCost),
        serviceCost: optionalAmount(calculationRequest.serviceCost),
        financedAmount: decimalOfCents(financedAmountOf(calculationRequest)),
        offers: quotableOffers(calculation).map((offer) => ({
          duration: offer.duration,
          calculationType: offer.calculationType,
          monthlyRateAllIn: decimalOfCents(offer.monthlyRateAllInCents),
          rentalFactor: offer.rentalFactor,
          commission: offer.commission,
          residualValue: offer.residualValue ?? '',
          baseRate: decimalOfCents(offer.baseRateCents),
        })),
      };
    },
    GetPartnerProfile: async (request) => {
      const profile = await deps.partners.findProfile(request.partnerId);
      if (!profile) throw notFound('partner.not_found', `No partner ${request.partnerId}.`);
      return {
        id: profile.id,
        name: profile.name,
        contactEmail: profile.contactEmail ?? '',
        hasFinancingPartner: profile.financingPartner !== null,
        financingPartner: profile.financingPartner ? { ...profile.financingPartner, contactEmail: profile.financingPartner.contactEmail ?? '' } : undefined,
        hasDistributionHub: profile.distributionHub !== null,
        distributionHub: profile.distributionHub
          ? { id: profile.distributionHub.id, name: profile.distributionHub.name, contactEmail: profile.distributionHub.contactEmail ?? '' }
          : undefined,
        distributionHubConnected: profile.distributionHub?.connected ?? false,
        paymentIntervals: profile.paymentIntervals,
      };
    },
    GetPartnerConditions: async (request) => ({
      conditionsJson: JSON.stringify(await partnerConditionsOf(deps.conditionsAdmin, request.partnerId)),
    }),
    PutPartnerConditions: async (request) => {
      const partner = { id: request.partnerId, name: request.name, contactEmail: request.contactEmail || null };
      return { conditionsJson: JSON.stringify(await replacePartnerConditions(deps.conditionsAdmin, partner, parsedConditions(request.conditionsJson))) };
    },
  });
  return { definition: loadPricingPackage().PricingService.service, implementation };
}
