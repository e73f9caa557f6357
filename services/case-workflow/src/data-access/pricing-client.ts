import { TypedClient, createGrpcClient } from '@rental/grpc';
import { loadPricingPackage } from '@rental/proto';
import type { PartnerDirectory } from '../domain/ports';

type PricingServiceClient = InstanceType<ReturnType<typeof loadPricingPackage>['PricingService']>;

/** Partner names come from pricing, which holds the partners' profiles. */
export class PricingPartnerDirectory implements PartnerDirectory {
  private readonly client: TypedClient<PricingServiceClient>;

  constructor(address: string, deadlineMs: number) {
    this.client = new TypedClient(createGrpcClient(loadPricingPackage().PricingService, address), deadlineMs);
  }

  async partnerName(partnerId: string): Promise<string | null> {
    const profile = await this.client.call('GetPartnerProfile', { partnerId }, { partnerId });
    return profile.name || null;
  }

  close(): void {
    this.client.close();
  }
}
