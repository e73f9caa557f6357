import * as grpc from '@grpc/grpc-js';
import { ServiceName, defaultAdminPort, defaultHttpPort, grpcAddressOf } from '@rental/config';
import { createGrpcClient } from '@rental/grpc';
import { CALLER_HEADER, IDENTITY_HEADER, IdentityKeys } from '@rental/identity';
import { loadDocumentsPackage, loadPricingPackage } from '@rental/proto';
import { fixturePartnerKey } from '@rental/testkit';
import { sharedStack } from '../support/shared-stack';
import { problemTypeOf } from '../support/problems';

/**
 * A hostile neighbour in the cluster skips the gateway and talks to the services' own ports,
 * claiming a partner with bare headers or metadata. Every such attempt is refused; the
 * services believe only an identity signed with the deployment's secret.
 */

const PROBLEM = 'application/problem+json; charset=utf-8';
const CLAIMED = { 'x-rental-partner-id': 'acme', 'x-rental-environment': 'sandbox', 'x-rental-roles': 'api_user' };
const FOREIGN_KEYS = new IdentityKeys('a-secret-the-attacker-made-up-itself-1234');

const serviceUrl = (name: ServiceName, path: string) => `http://127.0.0.1:${defaultHttpPort(name, sharedStack().portBase)}${path}`;
const adminUrl = (name: ServiceName | 'gateway', path: string) => `http://127.0.0.1:${defaultAdminPort(name, sharedStack().portBase)}${path}`;

const DIRECT_ROUTES: [ServiceName, string][] = [
  ['documents', '/api/documents/1/download'],
  ['case-workflow', '/api/financing-cases'],
  ['notifications', '/api/webhook_endpoints'],
  ['pricing', '/api/product-sectors'],
  ['cart-checkout', '/api/carts/01J9ZZZZZZZZZZZZZZZZZZZZZZ'],
];

describe('a service port reached without the gateway', () => {
  it.each(DIRECT_ROUTES)('when %s is called at %s with bare partner and environment headers, then 401 problem+json', async (service, path) => {
    const response = await fetch(serviceUrl(service, path), { headers: CLAIMED });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe(PROBLEM);
    expect(await response.json()).toMatchObject({ status: 401, type: problemTypeOf('auth.identity_refused') });
  });

  it.each(DIRECT_ROUTES)('when %s is called at %s with an identity signed by another secret, then 401', async (service, path) => {
    const forged = await FOREIGN_KEYS.sign({ caller: 'gateway', partnerId: 'acme', roles: ['api_user'] });
    const response = await fetch(serviceUrl(service, path), { headers: { ...CLAIMED, [IDENTITY_HEADER]: forged } });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe(PROBLEM);
  });

  it('when the identity is signed with the deployment secret, then the service answers for the partner signed, not for the one in a bare header', async () => {
    const signed = await new IdentityKeys(sharedStack().identitySecret).sign({ caller: 'gateway', partnerId: 'acme', roles: ['api_user'] });
    const response = await fetch(serviceUrl('notifications', '/api/webhook_endpoints'), {
      headers: { [IDENTITY_HEADER]: signed, 'x-rental-partner-id': 'beta' },
    });
    expect(response.status).toBe(200);
    const viaGateway = await fetch(`${sharedStack().gatewayUrl}/api/webhook_endpoints`, { headers: { 'X-Api-Key': fixturePartnerKey('acme') } });
    expect(await response.json()).toEqual(await viaGateway.json());
  });

  it('when /api is called with a signed identity that names no partner, then 401', async () => {
    const anonymous = await new IdentityKeys(sharedStack().identitySecret).sign({ caller: 'gateway', roles: [] });
    const response = await fetch(serviceUrl('pricing', '/api/product-sectors'), { headers: { ...CLAIMED, [IDENTITY_HEADER]: anonymous } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ type: problemTypeOf('auth.missing_partner') });
  });
});

describe('a gRPC port called without a signed identity', () => {
  const deadline = () => ({ deadline: Date.now() + 5000 });
  const bareCall = (client: grpc.Client, method: string, request: object, metadata: grpc.Metadata) =>
    new Promise<grpc.ServiceError | null>((resolve) => {
      (client as unknown as Record<string, (...args: unknown[]) => void>)[method]!.call(
        client,
        request,
        metadata,
        deadline(),
        (error: grpc.ServiceError | null) => resolve(error),
      );
    });
  const claiming = (entries: Record<string, string>) => {
    const metadata = new grpc.Metadata();
    for (const [key, value] of Object.entries(entries)) metadata.set(key, value);
    return metadata;
  };
  let pricing: grpc.Client;
  let documents: grpc.Client;
  /** pricing's GetPartnerProfile for acme with this signed identity, named as sent by `caller`. */
  const profileCallWith = (identity: string, caller: string) =>
    bareCall(pricing, 'GetPartnerProfile', { partnerId: 'acme' }, claiming({ [IDENTITY_HEADER]: identity, [CALLER_HEADER]: caller }));

  beforeAll(() => {
    pricing = createGrpcClient(loadPricingPackage().PricingService, grpcAddressOf('pricing', sharedStack().portBase, {}));
    documents = createGrpcClient(loadDocumentsPackage().DocumentsService, grpcAddressOf('documents', sharedStack().portBase, {}));
  });
  afterAll(() => {
    pricing.close();
    documents.close();
  });

  it.each([
    ['pricing', 'GetCalculation', { calculationId: '01J9ZZZZZZZZZZZZZZZZZZZZZZ' }],
    ['pricing', 'GetPartnerProfile', { partnerId: 'acme' }],
    ['documents', 'ListRequestItems', { financingCaseId: '1' }],
  ])('when %s.%s is called with only a partner in the metadata, then UNAUTHENTICATED', async (service, method, request) => {
    const error = await bareCall(
      service === 'pricing' ? pricing : documents,
      method,
      request,
      claiming({ 'x-rental-partner-id': 'acme', [CALLER_HEADER]: 'cart-checkout' }),
    );
    expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('when the identity is signed by another secret, then UNAUTHENTICATED', async () => {
    const forged = await FOREIGN_KEYS.sign({ caller: 'notifications', partnerId: 'acme', roles: [] });
    const error = await profileCallWith(forged, 'notifications');
    expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('when the caller in the metadata is not the caller signed, then UNAUTHENTICATED', async () => {
    const signed = await new IdentityKeys(sharedStack().identitySecret).sign({ caller: 'notifications', partnerId: 'acme', roles: [] });
    const error = await profileCallWith(signed, 'cart-checkout');
    expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('when the identity is signed with the deployment secret and names its caller, then the call is answered', async () => {
    const signed = await new IdentityKeys(sharedStack().identitySecret).sign({ caller: 'notifications', partnerId: 'acme', roles: [] });
    const error = await profileCallWith(signed, 'notifications');
    expect(error).toBeNull();
  });
});

describe('operations endpoints', () => {
  it.each(['/metrics', '/healthz', '/readyz'])('when %s is asked of the gateway public port, then 404 and nothing of the process is shown', async (path) => {
    const response = await fetch(`${sharedStack().gatewayUrl}${path}`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe(PROBLEM);
    expect(await response.text()).not.toContain('process_cpu');
  });

  it.each(['/metrics', '/readyz'])('when %s is asked of a service public port, then 401 like any other path', async (path) => {
    const response = await fetch(serviceUrl('documents', path));
    expect(response.status).toBe(401);
  });

  it.each(['gateway', 'pricing', 'cart-checkout', 'case-workflow', 'documents', 'notifications'] as const)(
    'when the admin port of %s is asked, then it is healthy, ready and shows its metrics',
    async (name) => {
      expect((await fetch(adminUrl(name, '/healthz'))).status).toBe(200);
      const ready = await fetch(adminUrl(name, '/readyz'));
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ready' });
      const metrics = await fetch(adminUrl(name, '/metrics'));
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('process_cpu');
    },
  );

  it('when the API description is asked of the gateway public port, then it is still served there', async () => {
    const response = await fetch(`${sharedStack().gatewayUrl}/api/docs.json`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });
});
