import { z } from 'zod';
import { booleanVariable, portVariable, urlVariable } from './load-config';

export const API_ENVIRONMENTS = ['sandbox', 'production'] as const;
export type ApiEnvironment = (typeof API_ENVIRONMENTS)[number];

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
};

/** The database name of a postgres URL; stream and subject names carry it so stacks never meet. */
export function databaseNameOf(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, '')) || 'postgres';
}
