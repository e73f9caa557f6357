import { TypedClient, createGrpcClient } from '@rental/grpc';
import { isDomainError } from '@rental/problem';
import { loadPricingPackage } from '@rental/proto';
import type { Contact, PartnerContacts } from '../domain/model';
import type { PartnerDirectory } from '../domain/ports';

type PricingClient = InstanceType<ReturnType<typeof loadPricingPackage>['PricingService']>;

const contactOf = (contact: { name: string; contactEmail: string } | null): Contact | undefined =>
  contact ? { name: contact.name, email: contact.contactEmail || undefined } : undefined;

/** Partner, lender and hub contacts from pricing's GetPartnerProfile. */
export class GrpcPartnerDirectory implements PartnerDirectory {
  private readonly client: TypedClient<PricingClient>;

  constructor(address: string, deadlineMs: number) {
    this.client = new TypedClient(createGrpcClient(loadPricingPackage().PricingService, address), deadlineMs);
  }

  async contactsOf(partnerId: string): Promise<PartnerContacts | undefined> {
    try {
      const profile = await this.client.call('GetPartnerProfile', { partnerId }, { partnerId, requestId: `notifications-mail-${partnerId}` });
      return {
        partner: { name: profile.name, email: profile.contactEmail || undefined },
        financingPartner: profile.hasFinancingPartner ? contactOf(profile.financingPartner) : undefined,
        distributionHub: profile.hasDistributionHub ? contactOf(profile.distributionHub) : undefined,
      };
    } catch (error) {
      if (isDomainError(error) && error.kind === 'not_found') return undefined;
      throw error;
    }
  }

  close(): void {
    this.client.close();
  }
}
