import { z } from 'zod';
import { durationVariable, loadConfig, urlVariable } from '@rental/config';
import { serviceVariables } from '@rental/service-host';

export const backofficeVariables = {
  ...serviceVariables,
  /** The operators' identity provider; unset: the dev identity provider of the local stack. */
  OPERATOR_ISSUER_URL: urlVariable(['http', 'https']).optional(),
  OPERATOR_AUDIENCE: z.string().min(1).default('rental-ops'),
  OPERATOR_ROLES_CLAIM: z.string().min(1).default('roles'),
  /** When a requested item is due unless the operator gives dueAt. */
  DOCUMENT_DUE_AFTER: durationVariable('14d'),
};

export type BackofficeConfig = ReturnType<typeof loadBackofficeConfig>;

export function loadBackofficeConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(backofficeVariables, env);
}
