import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { z } from 'zod';
import {
  LOCAL_HELPER_OFFSETS,
  SERVICE_NAMES,
  SIMULATOR_OFFSETS,
  ServiceName,
  booleanVariable,
  databaseNameOf,
  defaultAdminPort,
  durationVariable,
  parseConfig,
} from '@rental/config';
import { connectDatabase, ensureDatabaseExists } from '@rental/db';
import type { Logger } from '@rental/logger';
import { SeedFile, seedFileSchema } from './fixture';
import { HUB_STUB_SCHEMA, startHubStub } from './hub-stub';
import { ManagedProcess } from './managed-process';
import { EMBEDDED_S3_CREDENTIALS, startEmbeddedObjectStorage } from './object-storage';
import { SeedSummary, seedDeployment, seedPartners } from './seed';
import { startCreditBureauSimulator, startLenderSimulator, startSigningSimulator } from './simulators';
import { ReceivedMail, startSmtpSink } from './smtp-sink';

export type ProcessName = 'gateway' | ServiceName;
export const PROCESS_NAMES: ProcessName[] = ['gateway', ...SERVICE_NAMES];

export interface StackOptions {
  environment: 'sandbox' | 'production';
  portBase: number;
  gatewayPort: number;
  databaseUrl: string;
  natsUrl: string;
  /** Logs and embedded object storage live here. */
  stateDirectory: string;
  /** Extra variables for every process (they win over the launcher's own environment). */
  env?: NodeJS.ProcessEnv;
  restartOnCrash: boolean;
  /**
   * Serves POST /partners on the control port: a seed file whose partners and hubs are added to
   * the running stack (`seedPartners`). Tests make partners of their own that way without loading
   * every service's code into each test process; a stack people use has no such door.
   */
  acceptsTestPartners?: boolean;
  onCrash?: (name: string, code: number | null, signal: NodeJS.Signals | null) => void;
  log: Logger;
}

export interface Stack {
  gatewayUrl: string;
  portBase: number;
  databaseUrl: string;
  environment: string;
  processes: Record<ProcessName, ManagedProcess>;
  /** Mail the SMTP sink received (empty when SMTP_URL points elsewhere). */
  mail: ReceivedMail[];
  controlUrl: string;
  logDirectory: string;
  /** The secret every process of this stack signs and verifies internal identities with. */
  identitySecret: string;
  seed(seed: SeedFile): Promise<SeedSummary>;
  /**
   * A second process of every kind on ports of its own from `portBase` (HTTP, gRPC and admin
   * ports derived from it as for the stack), on the same database, bus and helpers: its gateway
   * proxies to its own services and they call each other's gRPC ports, like a second set of pods.
   * The stack's stop stops it too.
   */
  startReplicas(portBase: number): Promise<Replicas>;
  stop(): Promise<void>;
}

export interface Replicas {
  gatewayUrl: string;
  portBase: number;
  processes: Record<ProcessName, ManagedProcess>;
  stop(): Promise<void>;
}

function entryOf(name: ProcessName): string {
  return path.join(path.dirname(require.resolve(`@rental/${name}/package.json`)), 'dist', 'start.js');
}

/** The body as JSON, or undefined (which the seed schema refuses) when it is none. */
function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Serves what tests read from the stack's helpers (the mail the sink received) and, when given `addPartners`, takes their partners. */
function startControlServer(port: number, mail: ReceivedMail[], addPartners?: (seed: SeedFile) => Promise<void>): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.url === '/mail' && req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(mail));
    } else if (req.url === '/mail' && req.method === 'DELETE') {
      mail.splice(0, mail.length);
      res.writeHead(204).end();
    } else if (req.url === '/partners' && req.method === 'POST' && addPartners) {
      void text(req)
        .then(async (body) => {
          const seed = seedFileSchema.safeParse(parseJson(body));
          if (!seed.success) {
            res.writeHead(400, { 'Content-Type': 'text/plain' }).end(z.prettifyError(seed.error));
            return;
          }
          await addPartners(seed.data);
          res.writeHead(204).end();
        })
        .catch((error: unknown) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error)));
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

/** The simulator stands in for the lenders, who know their own secrets: it reads what the seed command loaded. */
export async function lenderSecret(db: ReturnType<typeof connectDatabase>, lenderId: string): Promise<string | undefined> {
  const row: { webhook_secret: string } | undefined = await db.withSchema('case_workflow').table('lenders').where({ id: lenderId }).first('webhook_secret');
  return row?.webhook_secret;
}

export const simulatorVariables = {
  LENDER_SIMULATOR_DELAY: durationVariable('3s'),
  SIGNING_SIMULATOR_DELAY: durationVariable('5s'),
  PRODUCTION_SIMULATORS: booleanVariable(false),
};
type SimulatorSettings = ReturnType<typeof parseConfig<typeof simulatorVariables>>;

/**
 * Production with PRODUCTION_SIMULATORS only: the simulated lender (for lenders without an
 * intakeUrl), signing provider (unless SIGNING_PROVIDER_URL is set) and credit bureau, and the
 * variables that point the processes at them (explicitly, so replicas on another port base reach
 * the same parties). Without it nothing is simulated, and case-workflow refuses to start without
 * the outside parties' URLs. Without SIGNING_WEBHOOK_SECRET one is made for this run and shared
 * by case-workflow and the signing simulator.
 */
async function startProductionParties(
  options: StackOptions,
  env: NodeJS.ProcessEnv,
  simulation: SimulatorSettings,
  helperDb: ReturnType<typeof connectDatabase>,
  closers: (() => Promise<unknown>)[],
): Promise<NodeJS.ProcessEnv> {
  if (options.environment !== 'production') return {};
  const report = (message: string) => options.log.warn(message);
  const variables: NodeJS.ProcessEnv = {
    SIGNING_WEBHOOK_SECRET: env.SIGNING_WEBHOOK_SECRET ?? `whsec_${randomBytes(24).toString('base64')}`,
  };
  if (!simulation.PRODUCTION_SIMULATORS) return variables;
  /** Starts the simulated party unless `variable` already points at a real one, and points `variable` at it. */
  const simulateUnlessSet = async (variable: string, start: () => Promise<{ url: string; close(): Promise<unknown> }>) => {
    if (env[variable]) return;
    const party = await start();
    closers.push(() => party.close());
    variables[variable] = party.url;
  };
  await simulateUnlessSet('LENDER_SIMULATOR_URL', () =>
    startLenderSimulator({
      secretOf: (id) => lenderSecret(helperDb, id),
      delayMs: simulation.LENDER_SIMULATOR_DELAY,
      port: options.portBase + SIMULATOR_OFFSETS.lender,
      report,
    }),
  );
  await simulateUnlessSet('SIGNING_PROVIDER_URL', () =>
    startSigningSimulator({
      secret: variables.SIGNING_WEBHOOK_SECRET as string,
      delayMs: simulation.SIGNING_SIMULATOR_DELAY,
      port: options.portBase + SIMULATOR_OFFSETS.signing,
      report,
    }),
  );
  await simulateUnlessSet('CREDIT_BUREAU_URL', () => startCreditBureauSimulator({ port: options.portBase + SIMULATOR_OFFSETS.creditBureau }));
  return variables;
}

/** One process of each kind with ports derived from `portBase`, logging to `<name><suffix>.log`. */
function createProcesses(
  shared: NodeJS.ProcessEnv,
  options: { portBase: number; gatewayPort: number; logDirectory: string; suffix: string; restartOnCrash: boolean; onCrash: StackOptions['onCrash'] },
): Record<ProcessName, ManagedProcess> {
  const env: NodeJS.ProcessEnv = { ...shared, SERVICE_PORT_BASE: String(options.portBase) };
  return Object.fromEntries(
    PROCESS_NAMES.map((name) => [
      name,
      new ManagedProcess({
        name: `${name}${options.suffix}`,
        entry: entryOf(name),
        env: name === 'gateway' ? { ...env, PORT: String(options.gatewayPort) } : env,
        logFile: path.join(options.logDirectory, `${name}${options.suffix}.log`),
        readyUrl: `http://127.0.0.1:${defaultAdminPort(name, options.portBase)}/readyz`,
        restartOnCrash: options.restartOnCrash,
        onCrash: options.onCrash,
      }),
    ]),
  ) as Record<ProcessName, ManagedProcess>;
}

async function startAll(processes: Record<ProcessName, ManagedProcess>): Promise<void> {
  Object.values(processes).forEach((process) => process.start());
  await Promise.all(Object.values(processes).map((process) => process.waitReady()));
}

/** The built entry also when this module runs from src (tests load the sources). */
function identityProviderEntry(): string {
  return path.join(__dirname, '..', 'dist', 'cli', 'identity-provider.js');
}

/**
 * Starts the processes against Postgres and NATS, with the local helpers the variables do not
 * replace: object storage unless S3_ENDPOINT is set, an SMTP sink unless SMTP_URL is set, the
 * hub stub unless HUB_URL is set, the dev identity provider unless OPERATOR_ISSUER_URL is set.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  const logDirectory = path.join(options.stateDirectory, 'logs');
  fs.mkdirSync(logDirectory, { recursive: true });
  await ensureDatabaseExists(options.databaseUrl);

  const closers: (() => Promise<unknown>)[] = [];
  const helperDb = connectDatabase({ url: options.databaseUrl, schema: HUB_STUB_SCHEMA });
  closers.push(() => helperDb.destroy());
  let hubUrl = env.HUB_URL;
  if (!hubUrl) {
    const hub = await startHubStub(helperDb, options.portBase + LOCAL_HELPER_OFFSETS.hubStub);
    closers.push(() => hub.close());
    hubUrl = hub.url;
  }
  const mail: ReceivedMail[] = [];
  let smtpUrl = env.SMTP_URL;
  if (!smtpUrl) {
    const sink = await startSmtpSink(options.portBase + LOCAL_HELPER_OFFSETS.smtpSink, mail);
    closers.push(() => sink.close());
    smtpUrl = sink.url;
  }
  let storage: NodeJS.ProcessEnv = {};
  if (!env.S3_ENDPOINT) {
    const server = await startEmbeddedObjectStorage(options.portBase + LOCAL_HELPER_OFFSETS.objectStorage, path.join(options.stateDirectory, 'object-storage'));
    closers.push(() => server.close());
    storage = { S3_ENDPOINT: server.url, S3_ACCESS_KEY: EMBEDDED_S3_CREDENTIALS.accessKey, S3_SECRET_KEY: EMBEDDED_S3_CREDENTIALS.secretKey };
  }
  const simulation = parseConfig(simulatorVariables, env);
  const production = await startProductionParties(options, env, simulation, helperDb, closers);
  const control = await startControlServer(
    options.portBase + LOCAL_HELPER_OFFSETS.stackControl,
    mail,
    options.acceptsTestPartners ? (seed) => seedPartners(options.databaseUrl, options.environment, seed) : undefined,
  );
  closers.push(() => new Promise((resolve) => control.close(resolve)));

  let operatorIssuerUrl = env.OPERATOR_ISSUER_URL;
  if (!operatorIssuerUrl) {
    const port = options.portBase + LOCAL_HELPER_OFFSETS.identityProvider;
    const consoleOrigins = [`http://127.0.0.1:${options.gatewayPort}`, ...(env.PUBLIC_BASE_URL ? [env.PUBLIC_BASE_URL.replace(/\/$/, '')] : [])];
    const identityProvider = new ManagedProcess({
      name: 'identity-provider',
      entry: identityProviderEntry(),
      env: {
        ...env,
        DATABASE_URL: options.databaseUrl,
        IDENTITY_PROVIDER_PORT: String(port),
        HOST: '127.0.0.1',
        CONSOLE_REDIRECT_URIS: consoleOrigins.map((origin) => `${origin}/console/callback`).join(','),
        PORTAL_REDIRECT_URIS: consoleOrigins.map((origin) => `${origin}/portal/callback`).join(','),
      },
      logFile: path.join(logDirectory, 'identity-provider.log'),
      readyUrl: `http://127.0.0.1:${port}/readyz`,
      restartOnCrash: options.restartOnCrash,
      onCrash: options.onCrash,
    });
    identityProvider.start();
    closers.push(() => identityProvider.stop());
    await identityProvider.waitReady();
    operatorIssuerUrl = `http://127.0.0.1:${port}`;
  }

  // One secret per stack, never a default in code: a process started without it refuses to run.
  const identitySecret = env.INTERNAL_IDENTITY_SECRET || randomBytes(32).toString('base64url');
  const shared: NodeJS.ProcessEnv = {
    ...env,
    ...storage,
    API_ENVIRONMENT: options.environment,
    DATABASE_URL: options.databaseUrl,
    NATS_URL: options.natsUrl,
    HUB_URL: hubUrl,
    SMTP_URL: smtpUrl,
    // Customer links and callback URLs point at this stack's gateway unless told otherwise.
    PUBLIC_BASE_URL: env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${options.gatewayPort}`,
    ...production,
    OPERATOR_ISSUER_URL: operatorIssuerUrl,
    INTERNAL_IDENTITY_SECRET: identitySecret,
  };
  // Per-process ports come from SERVICE_PORT_BASE (set per process set); one inherited HTTP_PORT would collide.
  delete shared.HTTP_PORT;
  delete shared.GRPC_PORT;
  delete shared.ADMIN_PORT;
  const processes = createProcesses(shared, {
    portBase: options.portBase,
    gatewayPort: options.gatewayPort,
    logDirectory,
    suffix: '',
    restartOnCrash: options.restartOnCrash,
    onCrash: options.onCrash,
  });
  const replicaSets: Replicas[] = [];

  const stop = async () => {
    await Promise.all([...replicaSets.map((replicas) => replicas.stop()), ...Object.values(processes).map((process) => process.stop())]);
    for (const close of closers.reverse()) await close().catch(() => undefined);
  };
  try {
    await startAll(processes);
  } catch (error) {
    await stop();
    throw error;
  }
  const startReplicas = async (portBase: number): Promise<Replicas> => {
    const replicaProcesses = createProcesses(shared, {
      portBase,
      gatewayPort: portBase,
      logDirectory,
      suffix: `-replica-${portBase}`,
      restartOnCrash: options.restartOnCrash,
      onCrash: options.onCrash,
    });
    const replicas: Replicas = {
      gatewayUrl: `http://127.0.0.1:${portBase}`,
      portBase,
      processes: replicaProcesses,
      stop: async () => {
        await Promise.all(Object.values(replicaProcesses).map((process) => process.stop()));
      },
    };
    replicaSets.push(replicas);
    try {
      await startAll(replicaProcesses);
    } catch (error) {
      await replicas.stop();
      throw error;
    }
    return replicas;
  };
  options.log.debug({ database: databaseNameOf(options.databaseUrl), portBase: options.portBase }, 'stack ready');
  return {
    gatewayUrl: `http://127.0.0.1:${options.gatewayPort}`,
    portBase: options.portBase,
    databaseUrl: options.databaseUrl,
    environment: options.environment,
    processes,
    mail,
    controlUrl: `http://127.0.0.1:${options.portBase + LOCAL_HELPER_OFFSETS.stackControl}`,
    logDirectory,
    identitySecret,
    seed: (seed) => seedDeployment(options.databaseUrl, options.environment, seed, options.log, { productionSimulators: simulation.PRODUCTION_SIMULATORS }),
    startReplicas,
    stop,
  };
}
