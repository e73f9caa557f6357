import { z } from 'zod';
import type { ApiKey__Output } from './generated/rental/partner_access/v1/ApiKey';

/** The roles a partner's API key can carry. */
export const API_KEY_ROLES = ['api_user', 'readonly'] as const;

/** The statuses the portal and the back office show a key in: expiring is active with an expiresAt ahead. */
export const API_KEY_STATUSES = ['active', 'expiring', 'expired', 'revoked'] as const;

/**
 * What names an API key wherever a partner's keys are shown (the portal to the partner, the back
 * office to the approval team), never the key itself; each contract adds who made it, its times
 * and its status in its own words.
 */
export const apiKeyIdentityFields = {
  id: z.string(),
  name: z.string(),
  environment: z.enum(['sandbox', 'production']),
  role: z.enum(API_KEY_ROLES),
  prefix: z.string().describe("The key's first 12 characters"),
  createdAt: z.string(),
};

/** The identity fields as partner-access's ApiKey message carries them, the part both views of a key share. */
export type ApiKeyIdentity = Pick<ApiKey__Output, keyof typeof apiKeyIdentityFields>;

/** Just the identity of a key message: each view adds the other fields in its own words. */
export function apiKeyIdentityOf(key: ApiKeyIdentity): ApiKeyIdentity {
  const { id, name, environment, role, prefix, createdAt } = key;
  return { id, name, environment, role, prefix, createdAt };
}
