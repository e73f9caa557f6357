import { z } from 'zod';
import { booleanVariable, portVariable, urlVariable } from './load-config';
import { SERVICE_NAMES, ServiceName, variablePrefix } from './service-directory';

export const API_ENVIRONMENTS = ['sandbox', 'production'] as const;
export type ApiEnvironment = (typeof API_ENVIRONMENTS)[number];

/** `host:port` (a name, an IPv4 address or a bracketed IPv6 one), optionally after grpc-js's `dns:` scheme. */
const GRPC_ADDRESS = /^(?:dns:(?:\/\/[^/]*\/)?)?(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\]):([0-9]{1,5})$/;

export function grpcAddressVariable() {
  return z.string().refine((value) => {
    const port = GRPC_ADDRESS.exec(value)?.[1];
    return port !== undefined && Number(port) >= 1 && Number(port) <= 65535;
  }, 'must be host:port');
}

type VariablePrefix<Name extends string> = Name extends `${infer Head}-${infer Tail}` ? `${Uppercase<Head>}_${VariablePrefix<Tail>}` : Uppercase<Name>;
type PeerAddressVariables = {
  [Name in ServiceName as `${VariablePrefix<Name>}_HTTP_URL`]: z.ZodOptional<ReturnType<typeof urlVariable>>;
} & {
  [Name in ServiceName as `${VariablePrefix<Name>}_GRPC_ADDR`]: z.ZodOptional<ReturnType<typeof grpcAddressVariable>>;
};

/**
 * Explicit addresses of the other processes (a cluster's service names), read by httpUrlOf and
 * grpcAddressOf: checked at start like every variable, so a typo stops the process naming it
 * instead of failing each call later.
 */
export const peerAddressVariables = Object.fromEntries(
  SERVICE_NAMES.flatMap((name) => [
    [`${variablePrefix(name)}_HTTP_URL`, urlVariable(['http', 'https']).optional()],
    [`${variablePrefix(name)}_GRPC_ADDR`, grpcAddressVariable().optional()],
  ]),
) as PeerAddressVariables;

/** Variables every process of the platform reads; each process adds its own. */
export const platformVariables = {
  API_ENVIRONMENT: z.enum(API_ENVIRONMENTS, { message: 'must be sandbox or production' }).default('sandbox'),
  DATABASE_URL: urlVariable(['postgres', 'postgresql'], 'postgres://postgres@127.0.0.1:5432/rental'),
  NATS_URL: urlVariable(['nats', 'tls'], 'nats://127.0.0.1:4222'),
  SERVICE_PORT_BASE: portVariable(7100),
  HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GRPC_DEADLINE_MS: z.coerce.number().int().positive().default(5000),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().positive().default(10000),
  METRICS_ENABLED: booleanVariable(true),
  /**
   * Where partners, customers and outside parties reach the gateway: the base of problem `type`
   * URLs (case-workflow also builds customer links and callback URLs on it). Unset: the address
   * of the request at hand (X-Forwarded-Proto/-Host or Host).
   */
  PUBLIC_BASE_URL: urlVariable(['http', 'https']).optional(),
  ...peerAddressVariables,
};

/** The database name of a postgres URL; stream and subject names carry it so stacks never meet. */
export function databaseNameOf(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, '')) || 'postgres';
}
