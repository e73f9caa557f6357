import { TypedClient, createGrpcClient } from '@rental/grpc';
import { loadPricingPackage } from '@rental/proto';
import type { PartnerNames } from '../domain/shared/ports';

type PricingClient = InstanceType<ReturnType<typeof loadPricingPackage>['PricingService']>;

const CACHE_MS = 5 * 60 * 1000;

/**
 * Partner display names from pricing's partner profile, cached for a few minutes (a name shown
 * to customers changes rarely). A pricing outage leaves the name out rather than failing the
 * customer's page or the partner's call.
 */
export class GrpcPartnerNames implements PartnerNames {
  private readonly client: TypedClient<PricingClient>;
  private readonly cache = new Map<string, { name: string; until: number }>();

  constructor(address: string, deadlineMs: number) {
    this.client = new TypedClient(createGrpcClient(loadPricingPackage().PricingService, address), deadlineMs);
  }

  async nameOf(partnerId: string): Promise<string | null> {
    const cached = this.cache.get(partnerId);
    if (cached && cached.until > Date.now()) return cached.name;
    try {
      const profile = await this.client.call('GetPartnerProfile', { partnerId }, { partnerId });
      this.cache.set(partnerId, { name: profile.name, until: Date.now() + CACHE_MS });
      return profile.name || null;
    } catch {
      return null;
    }
  }

  close(): void {
    this.client.close();
  }
}
