import { ulid } from 'ulid';
import { Bus } from '@rental/bus';
import {
  GATEWAY_GRPC_OFFSET,
  LOCAL_HELPER_OFFSETS,
  SERVICE_NAMES,
  ServiceName,
  databaseNameOf,
  defaultAdminPort,
  grpcAddressOf,
  httpUrlOf,
} from '@rental/config';
import { NotificationListener, openDatabase, pingDatabase } from '@rental/db';
import { startGrpcServer, useInternalIdentity } from '@rental/grpc';
import { createAdminApp, startHttpServer } from '@rental/http';
import { IdentityKeys } from '@rental/identity';
import { createLogger } from '@rental/logger';
import { enableProcessMetrics } from '@rental/metrics';
import { describeProblems } from '@rental/problem';
import { MAIL_REQUESTED_SUBJECT, PROBLEM_CATALOGUE } from '@rental/proto';
import { outboxRelay, periodicJob, postgresLease } from '@rental/service-host';
import type { GatewayConfig } from './config';
import { ApiKeyRepository } from './data-access/api-key-repository';
import { ApiKeyAuthenticator } from './domain/api-key';
import { LastUseRecorder } from './domain/last-use';
import { PartnerAccess } from './domain/partner-access';
import { ACCESS_CHANGED_CHANNEL, PartnerAccessRepository } from './data-access/partner-access-repository';
import { GrpcConditionsOwner } from './data-access/pricing-conditions-client';
import { partnerAccessGrpcService } from './entry-points/grpc/partner-access-server';
import { sharedRateLimiter } from './data-access/shared-rate-limiter';
import { routeTemplateMatcher } from './domain/route-templates';
import { apiDescription, buildTag, describedPaths } from './entry-points/http/api-description';
import { gatewayRequestListener } from './entry-points/http/app';
import { clientAddressResolver } from './entry-points/http/client-address';
import { serviceProxy, upstreamEngine } from './entry-points/http/proxy';
import { migrations } from './migrations';

export const GATEWAY_SCHEMA = 'gateway';

export interface RunningGateway {
  port: number;
  adminPort: number;
  grpcPort: number;
  stop(): Promise<void>;
}

export async function startGateway(config: GatewayConfig, env: NodeJS.ProcessEnv = process.env): Promise<RunningGateway> {
  const log = createLogger('gateway', config.LOG_LEVEL);
  enableProcessMetrics('gateway');
  describeProblems(PROBLEM_CATALOGUE, config.PUBLIC_BASE_URL);
  const identity = new IdentityKeys(config.INTERNAL_IDENTITY_SECRET);
  const db = await openDatabase({ url: config.DATABASE_URL, schema: GATEWAY_SCHEMA, migrations, log });
  useInternalIdentity('gateway', identity);
  const bus = new Bus({
    url: config.NATS_URL,
    environment: config.API_ENVIRONMENT,
    databaseName: databaseNameOf(config.DATABASE_URL),
    serviceName: 'gateway',
    log,
  });
  bus.start().catch((error) => log.error({ err: error }, 'nats connection failed'));
  const keyStore = new ApiKeyRepository(db);
  const lastUse = new LastUseRecorder(keyStore);
  const authenticator = new ApiKeyAuthenticator(keyStore, config.API_ENVIRONMENT, config.API_KEY_CACHE_SECONDS * 1000, (keyHash) => lastUse.touch(keyHash));
  // Known keys are cached only while this connection listens: a revocation, roll or suspension
  // committed by any replica empties every replica's cache (issue 28: 401 within 2 s).
  const accessChanges = new NotificationListener({
    url: config.DATABASE_URL,
    channel: ACCESS_CHANGED_CHANNEL,
    log,
    onNotification: () => authenticator.forgetAll(),
    onListening: (listening) => authenticator.useCache(listening),
  });
  await accessChanges.start();
  const conditions = new GrpcConditionsOwner(grpcAddressOf('pricing', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
  const access = new PartnerAccess({
    store: new PartnerAccessRepository(db, { subject: bus.subject(MAIL_REQUESTED_SUBJECT), environment: config.API_ENVIRONMENT }),
    conditions,
    environment: config.API_ENVIRONMENT,
    now: () => new Date(),
    newKeyId: () => `key_${ulid()}`,
  });
  const workers = [
    outboxRelay({ db, bus, log }),
    periodicJob({
      name: 'api-key-last-use',
      everyMs: config.API_KEY_LAST_USED_FLUSH_SECONDS * 1000,
      log,
      firstRoundAfterInterval: true,
      run: () => lastUse.flush(),
    }),
    periodicJob({
      name: 'api-key-expiry-notices',
      everyMs: config.API_KEY_EXPIRY_CHECK_EVERY,
      log,
      singleton: postgresLease(db, 'api-key-expiry-notices'),
      run: () => access.sendExpiryNotices(),
    }),
  ];
  for (const worker of workers) worker.start();
  const grpc = await startGrpcServer(config.HOST, config.GRPC_PORT ?? config.SERVICE_PORT_BASE + GATEWAY_GRPC_OFFSET, [
    partnerAccessGrpcService(access, () => new Date(), log),
  ]);
  const engine = upstreamEngine();
  const proxies = Object.fromEntries(
    SERVICE_NAMES.map((name) => [name, serviceProxy(httpUrlOf(name, config.SERVICE_PORT_BASE, env), engine, config.UPSTREAM_TIMEOUT_MS, log, identity)]),
  ) as Record<ServiceName, ReturnType<typeof serviceProxy>>;
  // Built on its first request, not at start: it costs more CPU than the rest of the start. The
  // operations are still checked against the route table here, so a misrouted one stops the start.
  let description: Record<string, unknown> | undefined;
  const listener = gatewayRequestListener({
    log,
    authenticator,
    proxies,
    apiDescription: () => (description ??= apiDescription(buildTag(config.API_BUILD_TAG))),
    maxBodyBytes: config.MAX_BODY_BYTES,
    sessionConfig: {
      issuer: (config.OPERATOR_ISSUER_URL ?? `http://127.0.0.1:${config.SERVICE_PORT_BASE + LOCAL_HELPER_OFFSETS.identityProvider}`).replace(/\/$/, ''),
      audience: config.OPERATOR_AUDIENCE,
      consoleClientId: config.OPERATOR_CONSOLE_CLIENT_ID,
    },
    routeOf: routeTemplateMatcher(describedPaths()),
    problems: PROBLEM_CATALOGUE,
    clientAddress: clientAddressResolver(config.TRUSTED_PROXIES),
    limits: {
      perKey: sharedRateLimiter(db, GATEWAY_SCHEMA, 'key', { perSecond: config.RATE_LIMIT_KEY_PER_SECOND, burst: config.RATE_LIMIT_KEY_BURST }),
      perAddress: sharedRateLimiter(db, GATEWAY_SCHEMA, 'address', { perSecond: config.RATE_LIMIT_ADDRESS_PER_SECOND, burst: config.RATE_LIMIT_ADDRESS_BURST }),
    },
  });
  const http = await startHttpServer(listener, config.HOST, config.PORT);
  const admin = await startHttpServer(
    createAdminApp(async () => ({ database: await pingDatabase(db) })),
    config.HOST,
    config.ADMIN_PORT ?? defaultAdminPort('gateway', config.SERVICE_PORT_BASE),
  );
  log.info(
    { port: http.port, adminPort: admin.port, grpcPort: grpc.port, environment: config.API_ENVIRONMENT, database: databaseNameOf(config.DATABASE_URL) },
    'gateway listening',
  );
  return {
    port: http.port,
    adminPort: admin.port,
    grpcPort: grpc.port,
    stop: async () => {
      await http.close(config.SHUTDOWN_GRACE_MS);
      await grpc.stop(config.SHUTDOWN_GRACE_MS);
      await Promise.all(workers.map((worker) => worker.stop()));
      await lastUse.flush().catch((error) => log.warn({ err: error }, 'last use of keys not written'));
      await accessChanges.stop();
      conditions.close();
      await bus.close();
      await engine.close();
      await db.destroy();
      await admin.close(0);
    },
  };
}
