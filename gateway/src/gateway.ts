import { LOCAL_HELPER_OFFSETS, SERVICE_NAMES, ServiceName, databaseNameOf, defaultAdminPort, httpUrlOf } from '@rental/config';
import { openDatabase, pingDatabase } from '@rental/db';
import { createAdminApp, startHttpServer } from '@rental/http';
import { IdentityKeys } from '@rental/identity';
import { createLogger } from '@rental/logger';
import { enableProcessMetrics } from '@rental/metrics';
import { describeProblems } from '@rental/problem';
import { PROBLEM_CATALOGUE } from '@rental/proto';
import type { GatewayConfig } from './config';
import { ApiKeyRepository } from './data-access/api-key-repository';
import { ApiKeyAuthenticator } from './domain/api-key';
import { sharedRateLimiter } from './data-access/shared-rate-limiter';
import { routeTemplateMatcher } from './domain/route-templates';
import { apiDescription, buildTag } from './entry-points/http/api-description';
import { gatewayRequestListener } from './entry-points/http/app';
import { clientAddressResolver } from './entry-points/http/client-address';
import { serviceProxy, upstreamEngine } from './entry-points/http/proxy';
import { migrations } from './migrations';

export const GATEWAY_SCHEMA = 'gateway';

export interface RunningGateway {
  port: number;
  adminPort: number;
  stop(): Promise<void>;
}

export async function startGateway(config: GatewayConfig, env: NodeJS.ProcessEnv = process.env): Promise<RunningGateway> {
  const log = createLogger('gateway', config.LOG_LEVEL);
  enableProcessMetrics('gateway');
  describeProblems(PROBLEM_CATALOGUE, config.PUBLIC_BASE_URL);
  const identity = new IdentityKeys(config.INTERNAL_IDENTITY_SECRET);
  const db = await openDatabase({ url: config.DATABASE_URL, schema: GATEWAY_SCHEMA, migrations, log });
  const engine = upstreamEngine();
  const proxies = Object.fromEntries(
    SERVICE_NAMES.map((name) => [name, serviceProxy(httpUrlOf(name, config.SERVICE_PORT_BASE, env), engine, config.UPSTREAM_TIMEOUT_MS, log, identity)]),
  ) as Record<ServiceName, ReturnType<typeof serviceProxy>>;
  const description = apiDescription(buildTag(config.API_BUILD_TAG));
  const listener = gatewayRequestListener({
    log,
    authenticator: new ApiKeyAuthenticator(new ApiKeyRepository(db), config.API_ENVIRONMENT, config.API_KEY_CACHE_SECONDS * 1000),
    proxies,
    apiDescription: () => description,
    maxBodyBytes: config.MAX_BODY_BYTES,
    sessionConfig: {
      issuer: (config.OPERATOR_ISSUER_URL ?? `http://127.0.0.1:${config.SERVICE_PORT_BASE + LOCAL_HELPER_OFFSETS.identityProvider}`).replace(/\/$/, ''),
      audience: config.OPERATOR_AUDIENCE,
      consoleClientId: config.OPERATOR_CONSOLE_CLIENT_ID,
    },
    routeOf: routeTemplateMatcher(Object.keys(description.paths as Record<string, unknown>)),
    problems: PROBLEM_CATALOGUE,
    clientAddress: clientAddressResolver(config.TRUSTED_PROXIES),
    limits: {
      perKey: sharedRateLimiter(db, GATEWAY_SCHEMA, 'key', { perSecond: config.RATE_LIMIT_KEY_PER_SECOND, burst: config.RATE_LIMIT_KEY_BURST }),
      perAddress: sharedRateLimiter(db, GATEWAY_SCHEMA, 'address', { perSecond: config.RATE_LIMIT_ADDRESS_PER_SECOND, burst: config.RATE_LIMIT_ADDRESS_BURST }),
    },
  });
  const http = await startHttpServer(listener, config.HOST, config.PORT);
  const admin = await startHttpServer(createAdminApp(async () => ({ database: await pingDatabase(db) })), config.HOST, config.ADMIN_PORT ?? defaultAdminPort('gateway', config.SERVICE_PORT_BASE));
  log.info({ port: http.port, adminPort: admin.port, environment: config.API_ENVIRONMENT, database: databaseNameOf(config.DATABASE_URL) }, 'gateway listening');
  return {
    port: http.port,
    adminPort: admin.port,
    stop: async () => {
      await http.close(config.SHUTDOWN_GRACE_MS);
      await engine.close();
      await db.destroy();
      await admin.close(0);
    },
  };
}
