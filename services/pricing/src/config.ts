import { loadConfig, positiveIntegerVariable, urlVariable } from '@rental/config';
import { serviceVariables } from '@rental/service-host';

export const pricingVariables = {
  ...serviceVariables,
  /** Base URL of the distribution hub's SLA API; the local stack serves a stub. */
  HUB_URL: urlVariable(['http', 'https']).optional(),
  /** The SLA list waits at most this long for the hub, then answers with an empty list. */
  HUB_TIMEOUT_MS: positiveIntegerVariable(800),
};

export type PricingConfig = ReturnType<typeof loadPricingConfig>;

export function loadPricingConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(pricingVariables, env);
}
