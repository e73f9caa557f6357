import type { ServiceBinding } from '@rental/grpc';
import { unaryHandler } from '@rental/grpc';
import type { Logger } from '@rental/logger';
import { loadPricingPackage } from '@rental/proto';
import type { pricing } from '@rental/proto';
import { mapDatabaseError } from '@rental/service-host';
import { invalidInput, notFound } from '@rental/problem';
import { CartPricingDependencies, CheckoutTermsDependencies, DeviceClicks, FinancingOption, PricedItemInput, freezeCheckoutTerms, priceCart } from '../../domain/cart-pricing';
import { CategoryReader, resolveCategories } from '../../domain/categories';
import { Cents, centsOf, centsOfDecimal, decimalOf, milliDecimalOf, milliOfDecimal, scaledOfDecimal } from '../../domain/money';
import { baseMonthlyRate } from '../../domain/rates';
import type { PartnerProfileReader } from '../../domain/partner-profile';
import type { FrozenFactorReader } from '../../domain/calculation';
import { CalculationStore, findQuotableCalculation } from '../../domain/stored-calculation';

export interface PricingRpcDependencies {
  categories: CategoryReader;
  partners: PartnerProfileReader;
  cartPricing: CartPricingDependencies;
  checkoutTerms: CheckoutTermsDependencies;
  calculations: CalculationStore;
  frozenFactors: FrozenFactorReader;
}

const DEVICE_LINES = [
  ['bwBaselineCount', 'bwBaselinePrice'],
  ['colorBaselineCount', 'colorBaselinePrice'],
  ['scanBaselineCount', 'scanBaselinePrice'],
] as const;

/** Callers validate their input; a malformed amount here is a caller's bug, answered as invalid input. */
function parsed<T>(read: () => T, field: string): T {
  try {
    return read();
  } catch {
    throw invalidInput('pricing.invalid_amount', `${field} is not a valid amount.`);
  }
}

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
  monthlyRate: decimalOf(option.monthlyRateCents),
  rentalFactor: option.rentalFactor,
});

const optionalDecimal = (cents: Cents | null | undefined) => (cents === null || cents === undefined ? '' : decimalOf(cents));

/** The internal pricing calls; each adapts a message to a use case and back. */
export function pricingGrpcService(deps: PricingRpcDependencies, log: Logger): ServiceBinding {
  const mappers = [mapDatabaseError];
  const implementation: pricing.PricingServiceHandlers = {
    ResolveCategories: unaryHandler<pricing.ResolveCategoriesRequest__Output, pricing.ResolveCategoriesResponse>('ResolveCategories', log, mappers, async (request) => {
      const resolutions = await resolveCategories(deps.categories, request.items.map((item) => ({
        categoryId: item.categoryId || undefined,
        categorySlug: item.categorySlug || undefined,
      })));
      return {
        items: resolutions.map((resolution) => resolution.found
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
          : { found: false, conflicting: resolution.conflicting }),
      };
    }),
    PriceCart: unaryHandler<pricing.PriceCartRequest__Output, pricing.CartPricing>('PriceCart', log, mappers, async (request, { partnerId }) => {
      const priced = await priceCart(toItems(request.items), partnerId, deps.cartPricing);
      return {
        purchasePrice: decimalOf(priced.purchasePriceCents),
        financingOptions: priced.financingOptions.map(optionMessage),
        items: priced.items.map((item) => ({ position: item.position, total: decimalOf(item.totalCents), financingOptions: item.financingOptions.map(optionMessage) })),
        recurringServiceFee: optionalDecimal(priced.recurringServiceFeeCents),
      };
    }),
    FreezeCheckoutTerms: unaryHandler<pricing.FreezeCheckoutTermsRequest__Output, pricing.FrozenTerms>('FreezeCheckoutTerms', log, mappers, async (request, { partnerId }) => {
      const terms = await freezeCheckoutTerms({
        items: toItems(request.items),
        financingType: request.financingType,
        duration: request.duration,
        paymentInterval: request.paymentInterval || 'monthly',
        commission: request.hasCommission ? request.commission : undefined,
        serviceCostCents: parsed(() => centsOfDecimal(request.serviceCost), 'serviceCost'),
        customSlaFileName: request.customSlaFileName || undefined,
      }, partnerId, deps.checkoutTerms);
      return {
        financingType: terms.financingType,
        duration: terms.duration,
        commission: terms.commission,
        paymentInterval: terms.paymentInterval,
        rentalFactor: milliDecimalOf(terms.rentalFactorMilli),
        residualValue: terms.residualValueMilli === null ? '' : milliDecimalOf(terms.residualValueMilli),
        purchasePrice: decimalOf(terms.purchasePriceCents),
        monthlyRate: decimalOf(terms.monthlyRateCents),
        monthlyRateAllIn: decimalOf(terms.monthlyRateAllInCents),
        serviceCost: optionalDecimal(terms.serviceCostCents),
        monthlySurcharge: decimalOf(terms.monthlySurchargeCents),
        recurringServiceFee: optionalDecimal(terms.recurringServiceFeeCents),
        productSector: terms.productSector,
        financingPartnerId: terms.financingPartnerId,
        distributionHubId: terms.distributionHubId ?? '',
        customSlaFileName: terms.customSlaFileName ?? '',
      };
    }),
    GetCalculation: unaryHandler<pricing.GetCalculationRequest__Output, pricing.StoredCalculation>('GetCalculation', log, mappers, async (request, { partnerId }) => {
      const calculation = await findQuotableCalculation({ store: deps.calculations, conditions: deps.cartPricing.conditions, frozenFactors: deps.frozenFactors }, partnerId, request.calculationId);
      const { request: calculationRequest, offers } = calculation.response;
      const financedCents = centsOf(calculationRequest.acquisitionCost) + centsOf(calculationRequest.installationCost);
      return {
        id: calculation.id,
        partnerId: calculation.partnerId,
        createdAt: calculation.createdAt,
        productSector: calculation.productSector,
        categorySlug: calculation.category?.slug ?? '',
        paymentInterval: calculationRequest.paymentInterval,
        acquisitionCost: optionalDecimal(calculationRequest.acquisitionCost == null ? null : centsOf(calculationRequest.acquisitionCost)),
        installationCost: optionalDecimal(calculationRequest.installationCost == null ? null : centsOf(calculationRequest.installationCost)),
        serviceCost: optionalDecimal(calculationRequest.serviceCost == null ? null : centsOf(calculationRequest.serviceCost)),
        offers: offers.map((offer) => ({
          duration: offer.duration,
          calculationType: offer.calculationType,
          rate: decimalOf(centsOf(offer.rate)),
          rentalFactor: offer.rentalFactor,
          commission: offer.commission,
          residualValue: offer.residualValue ?? '',
          baseRate: decimalOf(baseMonthlyRate(financedCents, milliOfDecimal(offer.rentalFactor))),
        })),
      };
    }),
    GetPartnerProfile: unaryHandler<pricing.GetPartnerProfileRequest__Output, pricing.PartnerProfile>('GetPartnerProfile', log, mappers, async (request) => {
      const profile = await deps.partners.findProfile(request.partnerId);
      if (!profile) throw notFound('partner.not_found', `No partner ${request.partnerId}.`);
      return {
        id: profile.id,
        name: profile.name,
        contactEmail: profile.contactEmail ?? '',
        hasFinancingPartner: profile.financingPartner !== null,
        financingPartner: profile.financingPartner ? { ...profile.financingPartner, contactEmail: profile.financingPartner.contactEmail ?? '' } : undefined,
        hasDistributionHub: profile.distributionHub !== null,
        distributionHub: profile.distributionHub ? { id: profile.distributionHub.id, name: profile.distributionHub.name, contactEmail: profile.distributionHub.contactEmail ?? '' } : undefined,
        distributionHubConnected: profile.distributionHub?.connected ?? false,
        paymentIntervals: profile.paymentIntervals,
      };
    }),
  };
  return { definition: loadPricingPackage().PricingService.service, implementation };
}
