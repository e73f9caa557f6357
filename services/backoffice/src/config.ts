import { z } from 'zod';
import { loadConfig, urlVariable } from '@rental/config';
import { serviceVariables } from '@rental/service-host';

const DURATION = /^([1-9][0-9]*)(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A duration such as 30s, 15m, 12h or 14d, in milliseconds. */
export function durationVariable(defaultValue: string) {
  return z.string().regex(DURATION, 'must be an integer with a unit: 30s, 15m, 12h or 14d').default(defaultValue).transform((value) => {
    const [, amount, unit] = DURATION.exec(value) as RegExpExecArray;
    return Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  });
}

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
