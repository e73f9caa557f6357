import { TypedClient, createGrpcClient } from '@rental/grpc';
import { centsOfAmount, decimalOfCents, decimalOfNumber } from '@rental/money';
import { loadPricingPackage } from '@rental/proto';
import type { pricing } from '@rental/proto';
import { isDomainError } from '@rental/problem';
import type { CartItem } from '../domain/model/cart-item';
import type { CallContext, CheckoutTermsInput, FrozenTerms, PricingPort, StoredCalculation } from '../domain/ports';
import type { CartPricing } from '../domain/model/cart';

const decimal = (value: number | undefined, places: number) => (value === undefined ? '' : decimalOfNumber(value, places));
const amount = (value: number) => decimalOfCents(centsOfAmount(value));

function toCartItems(items: CartItem[]): pricing.CartItem[] {
  return items.map((item, index) => ({
    position: index + 1,
    productNumber: item.productNumber,
    quantity: item.quantity,
    price: amount(item.price),
    categoryId: item.categoryId ?? 0,
    categorySlug: item.categorySlug ?? '',
    devices: (item.devices ?? []).map((device) => ({
      bwBaselineCount: decimal(device.bwBaselineCount, 0),
      bwBaselinePrice: decimal(device.bwBaselinePrice, 4),
      bwOveragePrice: decimal(device.bwOveragePrice, 4),
      colorBaselineCount: decimal(device.colorBaselineCount, 0),
      colorBaselinePrice: decimal(device.colorBaselinePrice, 4),
      colorOveragePrice: decimal(device.colorOveragePrice, 4),
      scanBaselineCount: decimal(device.scanBaselineCount, 0),
      scanBaselinePrice: decimal(device.scanBaselinePrice, 4),
      scanOveragePrice: decimal(device.scanOveragePrice, 4),
      locked: device.locked ?? false,
    })),
  }));
}

/** Pricing's gRPC calls behind the domain's port. */
export class PricingClient implements PricingPort {
  private readonly client: TypedClient<InstanceType<ReturnType<typeof loadPricingPackage>['PricingService']>>;

  constructor(address: string, deadlineMs: number) {
    this.client = new TypedClient(createGrpcClient(loadPricingPackage().PricingService, address), deadlineMs);
  }

  async priceCart(items: CartItem[], context: CallContext): Promise<CartPricing> {
    const response = await this.client.call('PriceCart', { items: toCartItems(items) }, context);
    // The CartPricing message has the domain's CartPricing fields; proto3 has no null fee.
    return { ...response, recurringServiceFee: response.recurringServiceFee || null };
  }

  async freezeCheckoutTerms(items: CartItem[], terms: CheckoutTermsInput, context: CallContext): Promise<FrozenTerms> {
    return this.client.call(
      'FreezeCheckoutTerms',
      {
        items: toCartItems(items),
        financingType: terms.financingType,
        duration: terms.duration,
        paymentInterval: terms.paymentInterval,
        hasCommission: terms.commission !== undefined,
        commission: terms.commission ?? 0,
        serviceCost: terms.serviceCost === undefined || terms.serviceCost === null ? '' : amount(terms.serviceCost),
        customSlaFileName: terms.customSlaFileName ?? '',
      },
      context,
    );
  }

  async findCalculation(id: string, context: CallContext): Promise<StoredCalculation | undefined> {
    try {
      return await this.client.call('GetCalculation', { calculationId: id }, context);
    } catch (error) {
      if (isDomainError(error) && error.kind === 'not_found') return undefined;
      throw error;
    }
  }

  async financingPartnerOf(context: CallContext): Promise<{ financingPartnerId: string; distributionHubId: string }> {
    const profile = await this.client.call('GetPartnerProfile', { partnerId: context.partnerId }, context);
    return { financingPartnerId: profile.financingPartner?.id ?? '', distributionHubId: profile.distributionHub?.id ?? '' };
  }

  close(): void {
    this.client.close();
  }
}
