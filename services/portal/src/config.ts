import { z } from 'zod';
import { loadConfig, urlVariable } from '@rental/config';
import { serviceVariables } from '@rental/service-host';

export const portalVariables = {
  ...serviceVariables,
  /** The partners' identity provider; unset: the dev identity provider of the local stack (SERVICE_PORT_BASE + 25). */
  PORTAL_ISSUER_URL: urlVariable(['http', 'https']).optional(),
  PORTAL_AUDIENCE: z.string().min(1).default('rental-portal'),
  /** The claim naming the partner a user belongs to. */
  PORTAL_PARTNER_CLAIM: z.string().min(1).default('partner_id'),
  /** The claim holding viewer, developer, admin. */
  PORTAL_ROLES_CLAIM: z.string().min(1).default('portal_roles'),
  /** The page's public client at the identity provider (authorization code with PKCE). */
  PORTAL_CLIENT_ID: z.string().min(1).default('portal'),
};

export type PortalConfig = ReturnType<typeof loadPortalConfig>;

export function loadPortalConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(portalVariables, env);
}
