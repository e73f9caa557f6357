import { z } from 'zod';
import { loadConfig, platformVariables, portVariable, urlVariable } from '@rental/config';
import { connectDatabase } from '@rental/db';
import { runUntilSignal } from '@rental/http';
import { IDENTITY_SCHEMA, startIdentityProvider } from '../identity-provider';

/** A comma-separated list of redirect URIs, blanks dropped. */
const uriList = (value: string) =>
  value
    .split(',')
    .map((uri) => uri.trim())
    .filter(Boolean);

/**
 * The dev identity provider as its own process (the stack starts it when OPERATOR_ISSUER_URL is
 * unset; docker-compose runs it too): operators and partner users loaded by `npm run seed` sign in here.
 */
runUntilSignal('identity provider', async () => {
  const config = loadConfig({
    DATABASE_URL: platformVariables.DATABASE_URL,
    IDENTITY_PROVIDER_PORT: portVariable(8080),
    HOST: z.string().default('127.0.0.1'),
    /** The issuer as clients reach it; default http://127.0.0.1:<port>. */
    IDENTITY_PROVIDER_ISSUER: urlVariable(['http', 'https']).optional(),
    CONSOLE_REDIRECT_URIS: z.string().min(1).transform(uriList),
    OPERATOR_AUDIENCE: z.string().min(1).default('rental-ops'),
    OPERATOR_ROLES_CLAIM: z.string().min(1).default('roles'),
    /** Where the portal page may come back to after sign-in (the gateway's /portal/callback). */
    PORTAL_REDIRECT_URIS: z.string().default('').transform(uriList),
    PORTAL_AUDIENCE: z.string().min(1).default('rental-portal'),
    PORTAL_PARTNER_CLAIM: z.string().min(1).default('partner_id'),
    PORTAL_ROLES_CLAIM: z.string().min(1).default('portal_roles'),
  });
  const db = connectDatabase({ url: config.DATABASE_URL, schema: IDENTITY_SCHEMA });
  const provider = await startIdentityProvider({
    db,
    port: config.IDENTITY_PROVIDER_PORT,
    host: config.HOST,
    issuer: config.IDENTITY_PROVIDER_ISSUER,
    consoleRedirectUris: config.CONSOLE_REDIRECT_URIS,
    audience: config.OPERATOR_AUDIENCE,
    rolesClaim: config.OPERATOR_ROLES_CLAIM,
    portal: {
      redirectUris: config.PORTAL_REDIRECT_URIS,
      audience: config.PORTAL_AUDIENCE,
      partnerClaim: config.PORTAL_PARTNER_CLAIM,
      rolesClaim: config.PORTAL_ROLES_CLAIM,
    },
  });
  process.stdout.write(`identity provider listening at ${provider.issuer}\n`);
  return { stop: () => provider.close().then(() => db.destroy()) };
});
