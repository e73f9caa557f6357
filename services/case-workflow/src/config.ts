import { z } from 'zod';
import {
  ConfigurationError,
  booleanVariable,
  durationVariable,
  loadConfig,
  portVariable,
  positiveIntegerVariable,
  simulatorUrl,
  urlVariable,
} from '@rental/config';
import { serviceVariables } from '@rental/service-host';

/** Standard Webhooks secrets: `whsec_` and the base64 of the key's bytes. */
export const webhookSecret = z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, 'must be a whsec_ secret (whsec_ and base64)');

export const caseWorkflowVariables = {
  ...serviceVariables,
  /** How often the lender-submission worker looks for due submissions at the latest (it wakes on each one queued in this process). */
  LENDER_SUBMISSION_POLL_MS: positiveIntegerVariable(2000),
  /**
   * Submissions with the lender at once per process. No connection is held while the lender
   * answers, but each submission's reads and outcome share the pool (DB_POOL_MAX) with the
   * requests: 32 starved checkouts of a pool of 3 (connection timeouts) while the lender refused.
   */
  LENDER_SUBMISSION_CONCURRENCY: positiveIntegerVariable(8),
  /** Attempts of one lender submission before it stays failed for the approval team. */
  LENDER_MAX_ATTEMPTS: positiveIntegerVariable(8),
  /** Where customers, lenders and the signing provider reach the gateway; default http://127.0.0.1:<PORT>. */
  PUBLIC_BASE_URL: urlVariable(['http', 'https']).optional(),
  /** The gateway's port, for the default PUBLIC_BASE_URL. */
  PORT: portVariable(8080),
  /** The signing provider's API; required in production, else (sandbox, or PRODUCTION_SIMULATORS) the signing simulator of the local stack. */
  SIGNING_PROVIDER_URL: urlVariable(['http', 'https']).optional(),
  /** Signs what we send the signing provider and verifies what it sends us; required in production. */
  SIGNING_WEBHOOK_SECRET: webhookSecret.optional(),
  /** Items a lender asks for are due this long after the question. */
  DOCUMENT_DUE_AFTER: durationVariable('14d'),
  /**
   * The lender simulator serving lenders without an intakeUrl; unset: the local stack's, except
   * in production without PRODUCTION_SIMULATORS, where such a lender's submission fails.
   */
  LENDER_SIMULATOR_URL: urlVariable(['http', 'https']).optional(),
  /** The credit bureau's API; required in production, else the credit bureau simulator of the local stack. */
  CREDIT_BUREAU_URL: urlVariable(['http', 'https']).optional(),
  /**
   * Production with the local simulators for the outside parties not configured (local demos,
   * tests): an explicit choice, warned at start. A real deployment never sets it.
   */
  PRODUCTION_SIMULATORS: booleanVariable(false),
  CUSTOMER_LINK_TTL: durationVariable('30d'),
  SCHEDULER_TICK: durationVariable('30s'),
  REVIEW_REMINDER_AFTER: durationVariable('3d'),
  REVIEW_REMINDER_MAX: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').default(2),
  REVIEW_EXPIRY_AFTER: durationVariable('14d'),
  DOCUMENT_OVERDUE_GRACE: durationVariable('7d'),
};

export type CaseWorkflowConfig = ReturnType<typeof resolve>;

/** The outside parties production must name itself: a simulator stands in for them only by an explicit choice. */
const OUTSIDE_PARTIES = ['SIGNING_PROVIDER_URL', 'CREDIT_BUREAU_URL'] as const;

function resolve(config: z.infer<z.ZodObject<typeof caseWorkflowVariables>>) {
  const production = config.API_ENVIRONMENT === 'production';
  if (production && !config.SIGNING_WEBHOOK_SECRET) {
    throw new ConfigurationError('invalid configuration: SIGNING_WEBHOOK_SECRET is required when API_ENVIRONMENT is production');
  }
  const unset = OUTSIDE_PARTIES.filter((variable) => !config[variable]);
  if (production && !config.PRODUCTION_SIMULATORS && unset.length > 0) {
    throw new ConfigurationError(
      `invalid configuration: ${unset.map((variable) => `${variable} is required when API_ENVIRONMENT is production`).join('; ')} (PRODUCTION_SIMULATORS=true uses the local simulators instead)`,
    );
  }
  if (production && config.PRODUCTION_SIMULATORS) {
    const simulated = [...unset, 'lenders without an intakeUrl'].join(', ');
    process.stderr.write(`warning: PRODUCTION_SIMULATORS is true in production: the local simulators stand in for ${simulated}\n`);
  }
  const base = config.SERVICE_PORT_BASE;
  const lenderSimulator = config.LENDER_SIMULATOR_URL ?? (production && !config.PRODUCTION_SIMULATORS ? null : simulatorUrl('lender', base));
  return {
    ...config,
    PUBLIC_BASE_URL: (config.PUBLIC_BASE_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/+$/, ''),
    SIGNING_PROVIDER_URL: (config.SIGNING_PROVIDER_URL ?? simulatorUrl('signing', base)).replace(/\/+$/, ''),
    LENDER_SIMULATOR_URL: lenderSimulator?.replace(/\/+$/, '') ?? null,
    CREDIT_BUREAU_URL: (config.CREDIT_BUREAU_URL ?? simulatorUrl('creditBureau', base)).replace(/\/+$/, ''),
  };
}

export function loadCaseWorkflowConfig(env: NodeJS.ProcessEnv = process.env): CaseWorkflowConfig {
  const config = loadConfig(caseWorkflowVariables, env);
  try {
    return resolve(config);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return process.exit(78);
  }
}
