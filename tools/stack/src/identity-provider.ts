import http from 'node:http';
import { generateKeyPairSync, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Knex } from '@rental/db';
import { escapeHtml } from '@rental/html';
import type { SeedFile } from './fixture';
import { SignInGuard } from './sign-in-guard';

/**
 * The dev identity provider of the approval team and of the partners' people: a real OpenID
 * Connect provider (oidc-provider) that knows the operators and the partner users loaded by
 * `npm run seed`. It stands in for the company's IdP (OPERATOR_ISSUER_URL) and the partners' one
 * (PORTAL_ISSUER_URL) in the local stack and in the tests.
 */
export const IDENTITY_SCHEMA = 'identity_dev';
/** The resource indicator of the back office; its tokens carry OPERATOR_AUDIENCE as `aud`. */
const OPS_RESOURCE = 'urn:rental:ops';
/** The resource indicator of the partner portal; its tokens carry PORTAL_AUDIENCE as `aud`. */
const PORTAL_RESOURCE = 'urn:rental:portal';
const CONSOLE_CLIENT_ID = 'console';
export const PORTAL_CLIENT_ID = 'portal';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keyLength: number) => Promise<Buffer>;

async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(actual, expected);
}

/** People who sign in: operators, and partner users (who also name their partner). */
async function createAccountsTable(db: Knex, name: 'operators' | 'partner_users'): Promise<void> {
  if (await db.schema.withSchema(IDENTITY_SCHEMA).hasTable(name)) return;
  await db.schema.withSchema(IDENTITY_SCHEMA).createTable(name, (table) => {
    table.string('id', 100).primary();
    if (name === 'partner_users') table.string('partner_id', 100).notNullable();
    table.string('name', 255).notNullable();
    table.string('email', 255).notNullable().unique();
    table.text('password_hash').notNullable();
    table.jsonb('roles').notNullable();
    table.string('client_id', 100).notNullable().unique();
    // oidc-provider compares client secrets itself, in plain text: it cannot take a hash.
    table.text('client_secret').notNullable();
  });
}

async function migrateIdentityProvider(db: Knex): Promise<void> {
  await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [IDENTITY_SCHEMA]);
  await createAccountsTable(db, 'operators');
  await createAccountsTable(db, 'partner_users');
}

interface SeededAccount {
  id: string;
  name: string;
  email: string;
  password: string;
  roles: string[];
  clientId: string;
  clientSecret: string;
}

/** Upserts people by id; a password that did not change keeps its hash, so loading the same file twice changes nothing. */
async function upsertAccounts(db: Knex, tableName: 'operators' | 'partner_users', accounts: (SeededAccount & { partnerId?: string })[]): Promise<number> {
  const table = () => db.withSchema(IDENTITY_SCHEMA).table(tableName);
  const existing = new Map(
    ((await table().select('id', 'password_hash')) as { id: string; password_hash: string }[]).map((row) => [row.id, row.password_hash]),
  );
  const rows = await Promise.all(
    accounts.map(async (account) => {
      const stored = existing.get(account.id);
      const keep = stored !== undefined && (await passwordMatches(account.password, stored));
      return {
        id: account.id,
        ...(account.partnerId === undefined ? {} : { partner_id: account.partnerId }),
        name: account.name,
        email: account.email.toLowerCase(),
        password_hash: keep ? stored : await hashPassword(account.password),
        roles: JSON.stringify(account.roles),
        client_id: account.clientId,
        client_secret: account.clientSecret,
      };
    }),
  );
  if (rows.length > 0) await table().insert(rows).onConflict('id').merge();
  return rows.length;
}

export async function seedOperators(db: Knex, operators: SeedFile['operators']): Promise<number> {
  await migrateIdentityProvider(db);
  return upsertAccounts(db, 'operators', operators);
}

/** The partners' people (`partners[].users[]`), who sign in to the portal. */
export async function seedPartnerUsers(db: Knex, partners: SeedFile['partners']): Promise<number> {
  await migrateIdentityProvider(db);
  return upsertAccounts(
    db,
    'partner_users',
    partners.flatMap((partner) => partner.users.map((user) => ({ ...user, partnerId: partner.id }))),
  );
}

interface AccountRow {
  id: string;
  name: string;
  email: string;
  password_hash: string;
  roles: string[];
  client_id: string;
  client_secret: string;
}

interface PartnerUserRow extends AccountRow {
  partner_id: string;
}

/** Who an account or a program client is: an operator (back office) or a partner user (portal). */
type Account = { kind: 'operator'; row: AccountRow } | { kind: 'partner_user'; row: PartnerUserRow };

export interface IdentityProviderOptions {
  db: Knex;
  port: number;
  host?: string;
  /** The issuer as clients reach it (default http://<host>:<port>). */
  issuer?: string;
  /** Where the console may come back to after sign-in (the gateway's /console/callback). */
  consoleRedirectUris: string[];
  audience: string;
  rolesClaim: string;
  /** The partner portal's tokens: where the page may come back to, their audience and claims. */
  portal: { redirectUris: string[]; audience: string; partnerClaim: string; rolesClaim: string };
  accessTokenTtlSeconds?: number;
}

function loginPage(uid: string, error: string | null, portal: boolean): string {
  const title = portal ? 'Partner portal sign-in' : 'Approval team sign-in';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:4rem auto;padding:0 1rem}label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.4rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}.error{color:#a00}</style></head>
<body><main><h1>${title}</h1>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form></main></body></html>`;
}

function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 16 * 1024) req.destroy(new Error('form too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

/** Starts the provider; its issuer is http://<host>:<port>. */
export async function startIdentityProvider(options: IdentityProviderOptions): Promise<{ issuer: string; close(): Promise<void> }> {
  const { db } = options;
  await migrateIdentityProvider(db);
  const host = options.host ?? '127.0.0.1';
  const issuer = (options.issuer ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${options.port}`).replace(/\/$/, '');
  const operators = () => db.withSchema(IDENTITY_SCHEMA).table<AccountRow>('operators');
  const partnerUsers = () => db.withSchema(IDENTITY_SCHEMA).table<PartnerUserRow>('partner_users');
  const { default: Provider, errors } = await import('oidc-provider');
  const { default: MemoryAdapter } = (await import('oidc-provider/lib/adapters/memory_adapter.js' as string)) as { default: new (name: string) => object };
  // A new key at every start: tokens of an earlier run stop verifying, as after a key rotation.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' };
  const browserOrigins = new Set([...options.consoleRedirectUris, ...options.portal.redirectUris].map((uri) => new URL(uri).origin));

  /** A program's client (client credentials) belongs to one operator or one partner user. */
  const accountOfClient = async (clientId: string): Promise<Account | undefined> => {
    const operator = await operators().where({ client_id: clientId }).first();
    if (operator) return { kind: 'operator', row: operator };
    const user = await partnerUsers().where({ client_id: clientId }).first();
    return user ? { kind: 'partner_user', row: user } : undefined;
  };
  /** A person signed in through the console (an operator) or the portal page (a partner user). */
  const accountOfId = async (id: string, clientId: string | undefined): Promise<Account | undefined> => {
    if (clientId === PORTAL_CLIENT_ID) {
      const user = await partnerUsers().where({ id }).first();
      return user ? { kind: 'partner_user', row: user } : undefined;
    }
    const operator = await operators().where({ id }).first();
    return operator ? { kind: 'operator', row: operator } : undefined;
  };
  const accountOfToken = (token: { accountId?: string; clientId?: string }) =>
    token.accountId ? accountOfId(token.accountId, token.clientId) : accountOfClient(token.clientId ?? '');
  const claimsOf = (account: Account) =>
    account.kind === 'operator'
      ? { name: account.row.name, email: account.row.email, [options.rolesClaim]: account.row.roles }
      : {
          name: account.row.name,
          email: account.row.email,
          [options.portal.partnerClaim]: account.row.partner_id,
          [options.portal.rolesClaim]: account.row.roles,
        };
  const resourceOf = (account: Account | undefined, clientId: string | undefined) =>
    account?.kind === 'partner_user' || clientId === PORTAL_CLIENT_ID ? PORTAL_RESOURCE : OPS_RESOURCE;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CONSOLE_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        redirect_uris: options.consoleRedirectUris,
        post_logout_redirect_uris: options.consoleRedirectUris.map((uri) => uri.replace(/\/callback$/, '/')),
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
      {
        client_id: PORTAL_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        redirect_uris: options.portal.redirectUris,
        post_logout_redirect_uris: options.portal.redirectUris.map((uri) => uri.replace(/\/callback$/, '/')),
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    // Programs' clients (operators' and partner users') come from the seeded tables, so a seed after start is seen at once.
    adapter: (name: string) =>
      (name === 'Client'
        ? {
            async find(clientId: string) {
              const account = await accountOfClient(clientId);
              if (!account) return undefined;
              return {
                client_id: account.row.client_id,
                client_secret: account.row.client_secret,
                grant_types: ['client_credentials'],
                response_types: [],
                redirect_uris: [],
                token_endpoint_auth_method: 'client_secret_basic',
              };
            },
            async upsert() {},
            async findByUid() {
              return undefined;
            },
            async findByUserCode() {
              return undefined;
            },
            async destroy() {},
            async revokeByGrantId() {},
            async consume() {},
          }
        : new MemoryAdapter(name)) as never,
    jwks: { keys: [signingKey as never] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // Operators' tokens are for the back office, partner users' for the portal, whatever was asked.
        defaultResource: async (_ctx, client) => resourceOf(await accountOfClient(client.clientId), client.clientId),
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource, client) => {
          const allowed = resourceOf(await accountOfClient(client.clientId), client.clientId);
          if (resource !== allowed) throw new errors.InvalidTarget();
          const portal = resource === PORTAL_RESOURCE;
          return {
            scope: portal ? 'portal' : 'ops',
            audience: portal ? options.portal.audience : options.audience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: options.accessTokenTtlSeconds ?? 3600,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    claims: { openid: ['sub'], profile: ['name', 'email'] },
    clientBasedCORS: (_ctx, origin) => browserOrigins.has(origin),
    async findAccount(ctx, sub) {
      const account = await accountOfId(sub, ctx.oidc.client?.clientId);
      if (!account) return undefined;
      return { accountId: account.row.id, claims: async () => ({ sub: account.row.id, ...claimsOf(account) }) };
    },
    async extraTokenClaims(_ctx, token) {
      const account = await accountOfToken(token as { accountId?: string; clientId?: string });
      return account ? claimsOf(account) : undefined;
    },
    formats: {
      customizers: {
        // A program (client credentials) acts as its operator or partner user: its tokens name that
        // person as subject, as when they sign in (op-anna, not the client ops-anna), so the audit
        // names one id either way; the client id stays in client_id.
        async jwt(_ctx, token, jwt) {
          if ('accountId' in token && token.accountId) return jwt;
          const account = await accountOfClient(token.clientId as string);
          if (account) jwt.payload.sub = account.row.id;
          return jwt;
        },
      },
    },
    // The console and the portal are the company's own applications: signing in is the whole consent.
    async loadExistingGrant(ctx) {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (!session?.accountId || !client) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile');
      if (client.clientId === PORTAL_CLIENT_ID) grant.addResourceScope(PORTAL_RESOURCE, 'portal');
      else grant.addResourceScope(OPS_RESOURCE, 'ops');
      await grant.save();
      return grant;
    },
    interactions: { url: async (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: { AccessToken: 3600, ClientCredentials: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 600, Session: 8 * 3600, Grant: 8 * 3600 },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head><body><h1>Sign-in error</h1><pre>${escapeHtml(JSON.stringify(out, null, 2))}</pre></body></html>`;
    },
  });
  const callback = provider.callback();
  const signIns = new SignInGuard({ verify: passwordMatches, dummyHash: hashPassword(randomBytes(32).toString('base64')) });

  const interaction = async (req: http.IncomingMessage, res: http.ServerResponse, path: string) => {
    const details = await provider.interactionDetails(req, res);
    // The portal signs in partner users only, the console operators only.
    const portal = details.params.client_id === PORTAL_CLIENT_ID;
    if (req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(loginPage(details.uid, null, portal));
      return;
    }
    if (req.method === 'POST' && path.endsWith('/login')) {
      const form = await readForm(req);
      const email = form.get('email') ?? '';
      const account: AccountRow | undefined = await (portal ? partnerUsers() : operators()).where({ email: email.toLowerCase() }).first();
      const outcome = await signIns.check(email, form.get('password') ?? '', account?.password_hash);
      if (outcome !== 'signed_in' || !account) {
        const error = outcome === 'locked' ? `Too many failed sign-ins: try again in ${signIns.minutesLocked(email)} minutes.` : 'E-mail or password is wrong.';
        res.writeHead(401, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(loginPage(details.uid, error, portal));
        return;
      }
      await provider.interactionFinished(req, res, { login: { accountId: account.id } }, { mergeWithLastSubmission: false });
      return;
    }
    res.writeHead(405).end();
  };

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/readyz') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ready"}');
      return;
    }
    if (path.startsWith('/interaction/')) {
      interaction(req, res, path).catch((error: Error) => {
        if (!res.headersSent)
          res
            .writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' })
            .end(`The sign-in could not continue: ${error.message}. Start again from the page you came from.`);
      });
      return;
    }
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(options.port, host, resolve));
  return {
    issuer,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
