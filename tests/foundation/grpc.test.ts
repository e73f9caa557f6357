import { grpcAddressOf } from '@rental/config';
import { TypedClient, createGrpcClient } from '@rental/grpc';
import { DomainError } from '@rental/problem';
import { loadPricingPackage } from '@rental/proto';
import { sharedStack } from '../support/shared-stack';

describe('internal gRPC between services', () => {
  const pricing = loadPricingPackage();
  let client: TypedClient<InstanceType<typeof pricing.PricingService>>;

  beforeAll(() => {
    client = new TypedClient(createGrpcClient(pricing.PricingService, grpcAddressOf('pricing', sharedStack().portBase, {})), 2000);
  });
  afterAll(() => client.close());

  it('when a partner profile is asked for, then lender and hub contacts come back', async () => {
    const profile = await client.call('GetPartnerProfile', { partnerId: 'acme' }, { partnerId: 'acme', requestId: 'grpc-test' });
    expect(profile).toEqual(
      expect.objectContaining({
        id: 'acme',
        contactEmail: 'partner-ops@acme.example',
        hasFinancingPartner: true,
        financingPartner: { id: 'lender-a', name: 'Lender A Bank', contactEmail: 'credit@lender-a.example' },
        hasDistributionHub: true,
        distributionHubConnected: true,
        paymentIntervals: ['monthly', 'quarterly'],
      }),
    );
  });

  it('when the callee raises a domain error, then the caller receives the same error', async () => {
    const failure = await client.call('GetPartnerProfile', { partnerId: 'nobody' }, {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DomainError);
    expect(failure).toMatchObject({ kind: 'not_found', code: 'partner.not_found', message: 'No partner nobody.' });
  });

  it('when categories are resolved, then sector and article type are derived from the sector', async () => {
    const { items } = await client.call(
      'ResolveCategories',
      { items: [{ categorySlug: 'laptops' }, { categoryId: 7 }, { categorySlug: 'nope' }, { categoryId: 1, categorySlug: 'ultrasound-devices' }] },
      {},
    );
    expect(items.map((item) => [item.found, item.productSector, item.articleType, item.conflicting])).toEqual([
      [true, 'IT_AND_OFFICE_EQUIPMENT', 'ITK', false],
      [true, 'KITCHEN_AND_GASTRONOMY_EQUIPMENT', 'NON_ITK', false],
      [false, '', '', false],
      [false, '', '', true],
    ]);
  });
});
