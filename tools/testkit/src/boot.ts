import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { useInternalIdentity } from '@rental/grpc';
import { IdentityKeys } from '@rental/identity';
import { createLogger } from '@rental/logger';
import { DEMO_SEED_FILE, Replicas, Stack, readSeedFile, startStack } from '@rental/stack';
import { findFreePortBase } from './ports';

export interface BootOptions {
  environment?: 'sandbox' | 'production';
  /** Extra variables for every process. */
  env?: NodeJS.ProcessEnv;
  /** Load the project's fixture (default true). */
  seed?: boolean;
  /** Postgres server (without database name) for this stack, e.g. a PrivatePostgres. */
  postgresUrl?: string;
}

const POSTGRES = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';

/**
 * Boots the whole stack for a test run: its own database, its own port range, its own NATS
 * stream (names carry the database), webhooks to loopback allowed.
 */
export async function bootStack(options: BootOptions = {}): Promise<Stack> {
  const environment = options.environment ?? 'sandbox';
  const databaseName = `rental_test_${randomBytes(4).toString('hex')}`;
  const portBase = await findFreePortBase();
  const stack = await startStack({
    environment,
    portBase,
    gatewayPort: portBase,
    databaseUrl: `${options.postgresUrl ?? POSTGRES}/${databaseName}`,
    natsUrl: options.env?.NATS_URL ?? process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    stateDirectory: path.join(os.tmpdir(), 'rental-stacks', databaseName),
    // Rate limits are off unless a test sets them: the suite and the benchmarks drive one stack
    // from one address at full speed.
    // A production stack's outside parties are the local simulators unless a test names its own;
    // keys' last use is written every 2 s rather than 30, so a test sees it without waiting.
    env: {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      LOG_LEVEL: 'info',
      RATE_LIMIT_KEY_PER_SECOND: '0',
      RATE_LIMIT_ADDRESS_PER_SECOND: '0',
      PRODUCTION_SIMULATORS: 'true',
      API_KEY_LAST_USED_FLUSH_SECONDS: '2',
      ...options.env,
    },
    restartOnCrash: false,
    acceptsTestPartners: true,
    log: createLogger('testkit', 'warn'),
  });
  if (options.seed !== false) await stack.seed(readSeedFile(DEMO_SEED_FILE));
  actAsInternalCaller(stack.identitySecret);
  return stack;
}

/** A second process of every kind beside the stack's (`Stack.startReplicas`), on a free port range of its own. */
export async function bootReplicas(stack: Stack): Promise<Replicas> {
  return stack.startReplicas(await findFreePortBase());
}

/**
 * A test that calls a service's gRPC port directly plays an internal caller (`testkit`) of the
 * stack it booted, signing with that stack's secret; the hostile tests call without it.
 */
export function actAsInternalCaller(identitySecret: string): void {
  useInternalIdentity('testkit', new IdentityKeys(identitySecret));
}

/** Stops the stack and drops its database. */
export async function shutdownStack(stack: Stack): Promise<void> {
  await stack.stop();
  await dropDatabase(stack.databaseUrl);
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
