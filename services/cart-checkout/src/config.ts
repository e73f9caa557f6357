import { loadConfig, positiveIntegerVariable } from '@rental/config';
import { serviceVariables } from '@rental/service-host';

export const cartCheckoutVariables = {
  ...serviceVariables,
  /** Idempotency keys are kept at least this long (the specification asks for 24 hours). */
  IDEMPOTENCY_RETENTION_HOURS: positiveIntegerVariable(48),
};

export type CartCheckoutConfig = ReturnType<typeof loadCartCheckoutConfig>;

export function loadCartCheckoutConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(cartCheckoutVariables, env);
}
