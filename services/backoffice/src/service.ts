import { bearerAuthentication } from '@rental/bearer-token';
import { gatewayGrpcAddressOf, grpcAddressOf } from '@rental/config';
import { RunningService, startServiceHost } from '@rental/service-host';
import { PROBLEM_CATALOGUE } from '@rental/proto';
import type { BackofficeConfig } from './config';
import { GrpcCaseWorkflow } from './data-access/case-workflow-client';
import { GrpcDocuments } from './data-access/documents-client';
import { GrpcPartnerDirectory } from './data-access/partner-directory';
import { GrpcPartnerAccess } from './data-access/partner-access-client';
import { JwtVerifier } from './data-access/token-verifier';
import { backofficeApiDescription } from './entry-points/http/api-description';
import { mountConsole } from './entry-points/http/console';
import { backofficeRoutes } from './entry-points/http/routes';
import { migrations } from './migrations';

/** The issuer of operators' tokens: OPERATOR_ISSUER_URL, else the local stack's dev identity provider. */
export function operatorIssuerOf(config: Pick<BackofficeConfig, 'OPERATOR_ISSUER_URL' | 'SERVICE_PORT_BASE'>): string {
  return (config.OPERATOR_ISSUER_URL ?? `http://127.0.0.1:${config.SERVICE_PORT_BASE + 25}`).replace(/\/$/, '');
}

export function startBackoffice(config: BackofficeConfig): Promise<RunningService> {
  return startServiceHost({
    name: 'backoffice',
    migrations,
    config,
    usesBus: false,
    problems: PROBLEM_CATALOGUE,
    build: async () => {
      const cases = new GrpcCaseWorkflow(grpcAddressOf('case-workflow', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const documents = new GrpcDocuments(grpcAddressOf('documents', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const partners = new GrpcPartnerDirectory(grpcAddressOf('pricing', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const access = new GrpcPartnerAccess(gatewayGrpcAddressOf(config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const verifier = new JwtVerifier({ issuer: operatorIssuerOf(config), audience: config.OPERATOR_AUDIENCE, rolesClaim: config.OPERATOR_ROLES_CLAIM });
      // Built on its first request, not at start: it costs more CPU than the rest of the start.
      let description: Record<string, unknown> | undefined;
      return {
        router: backofficeRoutes(
          {
            cases,
            documents,
            partners,
            lender: cases,
            now: () => new Date(),
            documentDueAfterMs: config.DOCUMENT_DUE_AFTER,
          },
          access,
        ),
        http: {
          apiPrefix: '/ops/v1',
          // Before the body is read and before any case is looked up; the role is checked on the route.
          authenticate: bearerAuthentication({
            realm: 'rental-ops',
            missingTokenDetail: "An operator's bearer token (Authorization: Bearer <JWT>) is required.",
            authenticate: (token) => verifier.verify(token),
            localsKey: 'operator',
          }),
          beforeApi: (app) =>
            mountConsole(app, {
              description: () => (description ??= backofficeApiDescription('1.0.0')),
              rolesClaim: config.OPERATOR_ROLES_CLAIM,
              issuerUrl: config.OPERATOR_ISSUER_URL,
            }),
        },
        // Templates given by operators arrive base64 in JSON: 10 MB of file is about 14 MB of text.
        jsonLimit: '15mb',
        close: async () => {
          cases.close();
          documents.close();
          partners.close();
          access.close();
        },
      };
    },
  });
}
