import { z } from 'zod';
import { loadConfig, platformVariables, portVariable, urlVariable } from '@rental/config';
import { connectDatabase } from '@rental/db';
import { runUntilSignal } from '@rental/http';
import { IDENTITY_SCHEMA, startIdentityProvider } from '../identity-provider';

/**
 * The dev identity provider as its own process (the stack starts it when OPERATOR_ISSUER_URL is
 * unset; docker-compose runs it too): operators loaded by `npm run seed` sign in here.
 */
runUntilSignal('identity provider', async () => {
  const config = loadConfig({
    DATABASE_URL: platformVariables.DATABASE_URL,
    IDENTITY_PROVIDER_PORT: portVariable(8080),
    HOST: z.string().default('127.0.0.1'),
    /** The issuer as clients reach it; default http://127.0.0.1:<port>. */
    IDENTITY_PROVIDER_ISSUER: urlVariable(['http', 'https']).optional(),
    CONSOLE_REDIRECT_URIS: z.string().min(1).transform((value) => value.split(',').map((uri) => uri.trim()).filter(Boolean)),
    OPERATOR_AUDIENCE: z.string().min(1).default('rental-ops'),
    OPERATOR_ROLES_CLAIM: z.string().min(1).default('roles'),
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
  });
  process.stdout.write(`identity provider listening at ${provider.issuer}\n`);
  return { stop: () => provider.close().then(() => db.destroy()) };
});
