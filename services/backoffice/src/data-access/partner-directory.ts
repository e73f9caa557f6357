import { TypedClient, createGrpcClient } from '@rental/grpc';
import { DomainError } from '@rental/problem';
import { loadPricingPackage } from '@rental/proto';
import type { PartnerDirectory } from '../domain/ports';

type PricingClient = InstanceType<ReturnType<typeof loadPricingPackage>['PricingService']>;

/** Partner names from pricing, which keeps the partners' profiles; kept for the process's life. */
export class GrpcPartnerDirectory implements PartnerDirectory {
  private readonly client: TypedClient<PricingClient>;
  private readonly names = new Map<string, string | null>();

  constructor(address: string, deadlineMs: number) {
    this.client = new TypedClient(createGrpcClient(loadPricingPackage().PricingService, address), deadlineMs);
  }

  async nameOf(partnerId: string): Promise<string | null> {
    if (this.names.has(partnerId)) return this.names.get(partnerId) ?? null;
    try {
      const profile = await this.client.call('GetPartnerProfile', { partnerId }, { partnerId });
      this.names.set(partnerId, profile.name || null);
      return profile.name || null;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') return null;
      throw error;
    }
  }

  close(): void {
    this.client.close();
  }
}
