import { bearerAuthentication } from '@rental/bearer-token';
import { LOCAL_HELPER_OFFSETS, gatewayGrpcAddressOf, grpcAddressOf } from '@rental/config';
import { PROBLEM_CATALOGUE } from '@rental/proto';
import { RunningService, startServiceHost } from '@rental/service-host';
import type { PortalConfig } from './config';
import { GrpcPartnerAccess } from './data-access/partner-access-client';
import { PartnerTokenVerifier } from './data-access/token-verifier';
import { GrpcWebhookEndpoints } from './data-access/webhook-endpoints-client';
import { mountPage } from './entry-points/http/page';
import { portalRoutes } from './entry-points/http/routes';
import { migrations } from './migrations';

/** The issuer of partner users' tokens: PORTAL_ISSUER_URL, else the local stack's dev identity provider. */
export function portalIssuerOf(config: Pick<PortalConfig, 'PORTAL_ISSUER_URL' | 'SERVICE_PORT_BASE'>): string {
  return (config.PORTAL_ISSUER_URL ?? `http://127.0.0.1:${config.SERVICE_PORT_BASE + LOCAL_HELPER_OFFSETS.identityProvider}`).replace(/\/$/, '');
}

export function startPortal(config: PortalConfig): Promise<RunningService> {
  return startServiceHost({
    name: 'portal',
    migrations,
    config,
    usesBus: false,
    problems: PROBLEM_CATALOGUE,
    build: async () => {
      const access = new GrpcPartnerAccess(gatewayGrpcAddressOf(config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const webhooks = new GrpcWebhookEndpoints(grpcAddressOf('notifications', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const issuer = portalIssuerOf(config);
      const verifier = new PartnerTokenVerifier(
        { issuer, audience: config.PORTAL_AUDIENCE, partnerClaim: config.PORTAL_PARTNER_CLAIM, rolesClaim: config.PORTAL_ROLES_CLAIM },
        (partnerId) => access.partnerExists(partnerId),
      );
      return {
        router: portalRoutes({ access, webhooks, environment: config.API_ENVIRONMENT }),
        http: {
          apiPrefix: '/portal/v1',
          // Before the body is read and before any key or endpoint is looked up; the role is checked on the route.
          authenticate: bearerAuthentication({
            realm: 'rental-portal',
            missingTokenDetail: "A partner user's bearer token (Authorization: Bearer <JWT>) is required.",
            authenticate: async (token) => verifier.verify(token),
            localsKey: 'user',
          }),
          beforeApi: (app) => mountPage(app, { sessionConfig: { issuer, audience: config.PORTAL_AUDIENCE, clientId: config.PORTAL_CLIENT_ID } }),
        },
        close: async () => {
          access.close();
          webhooks.close();
        },
      };
    },
  });
}
