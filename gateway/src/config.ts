import { z } from 'zod';
import { durationVariable, loadConfig, platformVariables, portVariable, positiveIntegerVariable, urlVariable } from '@rental/config';
import { identityVariables } from '@rental/identity';
import { trustedProxiesVariable } from './entry-points/http/client-address';

export const gatewayVariables = {
  ...platformVariables,
  PORT: portVariable(8080),
  /** Health, readiness and metrics; default SERVICE_PORT_BASE + 40. */
  ADMIN_PORT: portVariable().optional(),
  /** Load balancers and ingress controllers whose X-Forwarded-For is believed: addresses or CIDRs, comma-separated. */
  TRUSTED_PROXIES: trustedProxiesVariable(),
  ...identityVariables,
  /** gRPC port of the partner access service (back office, portal); default SERVICE_PORT_BASE + 10. */
  GRPC_PORT: portVariable().optional(),
  /**
   * Seconds a known key stays cached; a revocation, suspension or expiry still reaches every
   * replica within 2 s (Postgres NOTIFY empties the cache; expiry is checked per request).
   */
  API_KEY_CACHE_SECONDS: positiveIntegerVariable(30),
  /** How often the keys' last use, kept in memory, is written to Postgres (one statement). */
  API_KEY_LAST_USED_FLUSH_SECONDS: positiveIntegerVariable(30),
  /** How often one replica looks for keys that expire within 7 days, to mail the partner once. */
  API_KEY_EXPIRY_CHECK_EVERY: durationVariable('1h'),
  /** Largest request body the gateway forwards (document uploads are the largest). */
  MAX_BODY_BYTES: positiveIntegerVariable(11 * 1024 * 1024),
  UPSTREAM_TIMEOUT_MS: positiveIntegerVariable(60_000),
  /**
   * Requests per second and burst per API key, and per client address for attempts without a
   * valid key; shared by every replica; 0 switches a limit off.
   */
  RATE_LIMIT_KEY_PER_SECOND: z.coerce.number().nonnegative().default(200),
  RATE_LIMIT_KEY_BURST: positiveIntegerVariable(400),
  RATE_LIMIT_ADDRESS_PER_SECOND: z.coerce.number().nonnegative().default(500),
  RATE_LIMIT_ADDRESS_BURST: positiveIntegerVariable(1000),
  /** The approval team's identity provider, named to the console by /ops/v1/session-config; unset: the dev one. */
  OPERATOR_ISSUER_URL: urlVariable(['http', 'https']).optional(),
  OPERATOR_AUDIENCE: z.string().min(1).default('rental-ops'),
  OPERATOR_CONSOLE_CLIENT_ID: z.string().min(1).default('console'),
  API_BUILD_TAG: z
    .string()
    .regex(/^\d{4}\.\d{2}\.\d{2}(\.\d+)?$/, 'must be a calendar tag such as 2026.11.22')
    .optional(),
};

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(gatewayVariables, env);
}
