import { z } from 'zod';
import { Bus } from '@rental/bus';
import {
  ServiceName,
  databaseNameOf,
  schemaOf,
  defaultAdminPort,
  defaultGrpcPort,
  defaultHttpPort,
  platformVariables,
  portVariable,
  positiveIntegerVariable,
} from '@rental/config';
import { Knex, Migration, mapDatabaseError, openDatabase, pingDatabase } from '@rental/db';
import { RunningGrpcServer, ServiceBinding, grpcTlsVariables, startGrpcServer, useGrpcTls, useInternalIdentity } from '@rental/grpc';
import { ErrorMapper, HttpAppOptions, OperationRouter, createAdminApp, createHttpApp, startHttpServer } from '@rental/http';
import { IdentityKeys, identityVariables } from '@rental/identity';
import { Logger, createLogger } from '@rental/logger';
import { enableProcessMetrics } from '@rental/metrics';
import { type ProblemCatalogue, describeProblems } from '@rental/problem';
import type { BackgroundWorker } from './jobs';

/** Variables of every service process, on top of the platform's. */
export const serviceVariables = {
  ...platformVariables,
  HTTP_PORT: portVariable().optional(),
  GRPC_PORT: portVariable().optional(),
  /** Health, readiness and metrics; default SERVICE_PORT_BASE + 40 + the service's offset. */
  ADMIN_PORT: portVariable().optional(),
  ...identityVariables,
  /** Optional mutual TLS for gRPC: files mounted from a Secret (cert-manager), all three or none. */
  ...grpcTlsVariables,
  DB_POOL_MAX: positiveIntegerVariable(6),
};

export type ServiceConfig = z.infer<z.ZodObject<typeof serviceVariables>>;

export interface ServiceParts {
  router: OperationRouter;
  grpc?: ServiceBinding[];
  workers?: BackgroundWorker[];
  jsonLimit?: string;
  /** Routes outside /api, such as outside parties' signed callbacks (see createHttpApp). */
  mountOutsideApi?: HttpAppOptions['mountOutsideApi'];
  /** Where the API lives and who may call it, when not the partner API under /api. */
  http?: Pick<HttpAppOptions, 'apiPrefix' | 'authenticate' | 'beforeApi'>;
  /** Closes clients the service opened (gRPC clients, storage). */
  close?: () => Promise<void>;
}

export interface ServiceHostOptions<UsesBus extends boolean> {
  /** Also names the service's Postgres schema (schemaOf). */
  name: ServiceName;
  migrations: Record<string, Migration>;
  config: ServiceConfig;
  /** Whether the service publishes or consumes on NATS; readiness then includes it, and build gets the bus. */
  usesBus: UsesBus;
  /** Every problem code by its title and page (PROBLEM_CATALOGUE of @rental/proto): problems answered carry its titles. */
  problems: ProblemCatalogue;
  build(context: { db: Knex; bus: UsesBus extends true ? Bus : undefined; log: Logger }): Promise<ServiceParts>;
}

export interface RunningService {
  httpPort: number;
  adminPort: number;
  grpcPort?: number;
  stop(): Promise<void>;
}

export async function startServiceHost<UsesBus extends boolean>(options: ServiceHostOptions<UsesBus>): Promise<RunningService> {
  const { config, name } = options;
  const log = createLogger(name, config.LOG_LEVEL);
  enableProcessMetrics(name);
  describeProblems(options.problems, config.PUBLIC_BASE_URL);
  const identity = new IdentityKeys(config.INTERNAL_IDENTITY_SECRET);
  useInternalIdentity(name, identity);
  useGrpcTls(config);
  const db = await openDatabase({ url: config.DATABASE_URL, schema: schemaOf(name), migrations: options.migrations, log, poolMax: config.DB_POOL_MAX });
  let bus: Bus | undefined;
  if (options.usesBus) {
    bus = new Bus({ url: config.NATS_URL, environment: config.API_ENVIRONMENT, databaseName: databaseNameOf(config.DATABASE_URL), serviceName: name, log });
    // Connecting goes on in the background: while NATS is down the service runs and reports not ready.
    bus.start().catch((error) => log.error({ err: error }, 'nats connection failed'));
  }
  // usesBus decides whether bus is set, which is what the context's type says.
  const parts = await options.build({ db, bus, log } as Parameters<ServiceHostOptions<UsesBus>['build']>[0]);
  const errorMappers: ErrorMapper[] = [mapDatabaseError];
  const app = createHttpApp({
    log,
    router: parts.router,
    errorMappers,
    jsonLimit: parts.jsonLimit,
    mountOutsideApi: parts.mountOutsideApi,
    ...parts.http,
    identity,
  });
  const http = await startHttpServer(app, config.HOST, config.HTTP_PORT ?? defaultHttpPort(name, config.SERVICE_PORT_BASE));
  let grpcServer: RunningGrpcServer | undefined;
  if (parts.grpc?.length) {
    grpcServer = await startGrpcServer(config.HOST, config.GRPC_PORT ?? defaultGrpcPort(name, config.SERVICE_PORT_BASE), parts.grpc);
  }
  // Last, so that ready means every port of the process listens.
  const admin = await startHttpServer(
    createAdminApp(async () => ({
      database: await pingDatabase(db),
      ...(bus ? { nats: bus.isConnected() } : {}),
    })),
    config.HOST,
    config.ADMIN_PORT ?? defaultAdminPort(name, config.SERVICE_PORT_BASE),
  );
  parts.workers?.forEach((worker) => worker.start());
  log.info({ httpPort: http.port, grpcPort: grpcServer?.port, adminPort: admin.port, environment: config.API_ENVIRONMENT }, `${name} listening`);
  return {
    httpPort: http.port,
    adminPort: admin.port,
    grpcPort: grpcServer?.port,
    stop: async () => {
      await http.close(config.SHUTDOWN_GRACE_MS);
      await grpcServer?.stop(config.SHUTDOWN_GRACE_MS);
      await Promise.all((parts.workers ?? []).map((worker) => worker.stop()));
      await parts.close?.();
      await bus?.close();
      await db.destroy();
      await admin.close(0);
      log.info(`${name} stopped`);
    },
  };
}

export { mapDatabaseError };
export * from './jobs';
export { outboxRelay } from './outbox-relay';
