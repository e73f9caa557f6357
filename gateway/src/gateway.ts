import { LOCAL_HELPER_OFFSETS, SERVICE_NAMES, ServiceName, databaseNameOf, httpUrlOf } from '@rental/config';
import { openDatabase, pingDatabase } from '@rental/db';
import { startHttpServer } from '@rental/http';
import { createLogger } from '@rental/logger';
import { enableProcessMetrics } from '@rental/metrics';
import type { GatewayConfig } from './config';
import { ApiKeyRepository } from './data-access/api-key-repository';
import { ApiKeyAuthenticator } from './domain/api-key';
import { RateLimiter } from './domain/rate-limiter';
import { routeTemplateMatcher } from './domain/route-templates';
import { apiDescription, buildTag } from './entry-points/http/api-description';
import { gatewayRequestListener } from './entry-points/http/app';
import { serviceProxy, upstreamAgent } from './entry-points/http/proxy';
import { migrations } from './migrations';

export const GATEWAY_SCHEMA = 'gateway';

export interface RunningGateway {
  port: number;
  stop(): Promise<void>;
}

export async function startGateway(config: GatewayConfig, env: NodeJS.ProcessEnv = process.env): Promise<RunningGateway> {
  const log = createLogger('gateway', config.LOG_LEVEL);
  enableProcessMetrics('gateway');
  const db = await openDatabase({ url: config.DATABASE_URL, schema: GATEWAY_SCHEMA, migrations, log });
  const agent = upstreamAgent();
  const proxies = Object.fromEntries(
    SERVICE_NAMES.map((name) => [name, serviceProxy(httpUrlOf(name, config.SERVICE_PORT_BASE, env), agent, config.UPSTREAM_TIMEOUT_MS, log)]),
  ) as Record<ServiceName, ReturnType<typeof serviceProxy>>;
  const description = apiDescription(buildTag(config.API_BUILD_TAG));
  const listener = gatewayRequestListener({
    log,
    authenticator: new ApiKeyAuthenticator(new ApiKeyRepository(db), config.API_ENVIRONMENT, config.API_KEY_CACHE_SECONDS * 1000),
    proxies,
    apiDescription: () => description,
    readiness: async () => ({ database: await pingDatabase(db) }),
    maxBodyBytes: config.MAX_BODY_BYTES,
    sessionConfig: {
      issuer: (config.OPERATOR_ISSUER_URL ?? `http://127.0.0.1:${config.SERVICE_PORT_BASE + LOCAL_HELPER_OFFSETS.identityProvider}`).replace(/\/$/, ''),
      audience: config.OPERATOR_AUDIENCE,
      consoleClientId: config.OPERATOR_CONSOLE_CLIENT_ID,
    },
    routeOf: routeTemplateMatcher(Object.keys(description.paths as Record<string, unknown>)),
    limits: {
      perKey: new RateLimiter({ perSecond: config.RATE_LIMIT_KEY_PER_SECOND, burst: config.RATE_LIMIT_KEY_BURST }),
      perAddress: new RateLimiter({ perSecond: config.RATE_LIMIT_ADDRESS_PER_SECOND, burst: config.RATE_LIMIT_ADDRESS_BURST }),
    },
  });
  const http = await startHttpServer(listener, config.HOST, config.PORT);
  log.info({ port: http.port, environment: config.API_ENVIRONMENT, database: databaseNameOf(config.DATABASE_URL) }, 'gateway listening');
  return {
    port: http.port,
    stop: async () => {
      await http.close(config.SHUTDOWN_GRACE_MS);
      agent.destroy();
      await db.destroy();
    },
  };
}
