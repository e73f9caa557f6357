import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { LOCAL_HELPER_OFFSETS, SERVICE_NAMES, ServiceName, databaseNameOf, defaultAdminPort } from '@rental/config';
import { connectDatabase, ensureDatabaseExists } from '@rental/db';
import type { Logger } from '@rental/logger';
import type { SeedFile } from './fixture';
import { HUB_STUB_SCHEMA, startHubStub } from './hub-stub';
import { ManagedProcess } from './managed-process';
import { EMBEDDED_S3_CREDENTIALS, startEmbeddedObjectStorage } from './object-storage';
import { SeedSummary, seedDeployment } from './seed';
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
  onCrash?: (name: string, code: number | null, signal: NodeJS.Signals | null) => void;
  log: Logger;
}

export interface Stack {
  gatewayUrl: string;
  portBase: number;
  databaseUrl: string;
  environment: string;
  /** The secret every process of this stack signs and verifies internal identities with. */
  identitySecret: string;
  processes: Record<ProcessName, ManagedProcess>;
  /** Mail the SMTP sink received (empty when SMTP_URL points elsewhere). */
  mail: ReceivedMail[];
  controlUrl: string;
  logDirectory: string;
  seed(seed: SeedFile): Promise<SeedSummary>;
  stop(): Promise<void>;
}

function entryOf(name: ProcessName): string {
  return path.join(path.dirname(require.resolve(`@rental/${name}/package.json`)), 'dist', 'start.js');
}

/** Serves what tests read from the stack's helpers: the mail the sink received. */
function startControlServer(port: number, mail: ReceivedMail[]): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.url === '/mail' && req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(mail));
    } else if (req.url === '/mail' && req.method === 'DELETE') {
      mail.splice(0, mail.length);
      res.writeHead(204).end();
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

/**
 * Starts the six processes against Postgres and NATS, with the local helpers the variables do
 * not replace: object storage unless S3_ENDPOINT is set, an SMTP sink unless SMTP_URL is set,
 * the hub stub unless HUB_URL is set.
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
  const control = await startControlServer(options.portBase + LOCAL_HELPER_OFFSETS.stackControl, mail);
  closers.push(() => new Promise((resolve) => control.close(resolve)));

  // One secret per stack, never a default in code: a process started without it refuses to run.
  const identitySecret = env.INTERNAL_IDENTITY_SECRET || randomBytes(32).toString('base64url');
  const shared: NodeJS.ProcessEnv = {
    ...env,
    INTERNAL_IDENTITY_SECRET: identitySecret,
    ...storage,
    API_ENVIRONMENT: options.environment,
    DATABASE_URL: options.databaseUrl,
    NATS_URL: options.natsUrl,
    SERVICE_PORT_BASE: String(options.portBase),
    HUB_URL: hubUrl,
    SMTP_URL: smtpUrl,
  };
  // Per-process ports come from SERVICE_PORT_BASE; one inherited HTTP_PORT would collide.
  delete shared.HTTP_PORT;
  delete shared.GRPC_PORT;
  delete shared.ADMIN_PORT;
  const processes = Object.fromEntries(PROCESS_NAMES.map((name) => {
    return [name, new ManagedProcess({
      name,
      entry: entryOf(name),
      env: name === 'gateway' ? { ...shared, PORT: String(options.gatewayPort) } : shared,
      logFile: path.join(logDirectory, `${name}.log`),
      readyUrl: `http://127.0.0.1:${defaultAdminPort(name, options.portBase)}/readyz`,
      restartOnCrash: options.restartOnCrash,
      onCrash: options.onCrash,
    })];
  })) as Record<ProcessName, ManagedProcess>;

  const stop = async () => {
    await Promise.all(Object.values(processes).map((process) => process.stop()));
    for (const close of closers.reverse()) await close().catch(() => undefined);
  };
  try {
    Object.values(processes).forEach((process) => process.start());
    await Promise.all(Object.values(processes).map((process) => process.waitReady()));
  } catch (error) {
    await stop();
    throw error;
  }
  options.log.debug({ database: databaseNameOf(options.databaseUrl), portBase: options.portBase }, 'stack ready');
  return {
    gatewayUrl: `http://127.0.0.1:${options.gatewayPort}`,
    portBase: options.portBase,
    databaseUrl: options.databaseUrl,
    environment: options.environment,
    identitySecret,
    processes,
    mail,
    controlUrl: `http://127.0.0.1:${options.portBase + LOCAL_HELPER_OFFSETS.stackControl}`,
    logDirectory,
    seed: (seed) => seedDeployment(options.databaseUrl, options.environment, seed, options.log),
    stop,
  };
}
