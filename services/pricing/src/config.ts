import { loadConfig, positiveIntegerVariable, urlVariable } from '@rental/config';
import { serviceVariables } from '@rental/service-host';

export const pricingVariables = {
  ...serviceVariables,
  /** Base URL of the distribution hub's SLA API; the local stack serves a stub. */
  HUB_URL: urlVariable(['http', 'https']).optional(),
  /** The SLA list waits at most this long for the hub, then answers with an empty list. */
  HUB_TIMEOUT_MS: positiveIntegerVariable(800),
  /**
   * Catalog, conditions and partner profiles are kept in memory and dropped when the seed announces
   * a change (Postgres NOTIFY); they are reloaded after this long at the latest all the same.
   */
  PRICING_CONDITIONS_CACHE_TTL_MS: positiveIntegerVariable(60_000),
};

export type PricingConfig = ReturnType<typeof loadPricingConfig>;

export function loadPricingConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(pricingVariables, env);
}
