import { TypedClient, createGrpcClient } from '@rental/grpc';
import { DomainError } from '@rental/problem';
import { loadPricingPackage } from '@rental/proto';
import type { ConditionsOwner } from '../domain/partner-access';

type PricingClient = InstanceType<ReturnType<typeof loadPricingPackage>['PricingService']>;

/** Pricing keeps partners' conditions; the gateway reads and replaces them through it. */
export class GrpcConditionsOwner implements ConditionsOwner {
  private readonly client: TypedClient<PricingClient>;

  constructor(address: string, deadlineMs: number) {
    this.client = new TypedClient(createGrpcClient(loadPricingPackage().PricingService, address), deadlineMs);
  }

  async conditionsOf(partnerId: string): Promise<Record<string, unknown> | undefined> {
    try {
      const document = await this.client.call('GetPartnerConditions', { partnerId }, { partnerId });
      return JSON.parse(document.conditionsJson) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') return undefined;
      throw error;
    }
  }

  async putConditions(
    partner: { id: string; name: string; contactEmail: string | null },
    conditions: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const document = await this.client.call(
      'PutPartnerConditions',
      {
        partnerId: partner.id,
        name: partner.name,
        contactEmail: partner.contactEmail ?? '',
        conditionsJson: JSON.stringify(conditions),
      },
      { partnerId: partner.id },
    );
    return JSON.parse(document.conditionsJson) as Record<string, unknown>;
  }

  close(): void {
    this.client.close();
  }
}
