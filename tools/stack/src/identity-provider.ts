import http from 'node:http';
import { generateKeyPairSync, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Knex } from '@rental/db';
import type { SeedFile } from './fixture';
import { SignInGuard } from './sign-in-guard';

/**
 * The dev identity provider of the approval team: a real OpenID Connect provider (oidc-provider)
 * that knows the operators loaded by `npm run seed`. It stands in for the company's IdP
 * (OPERATOR_ISSUER_URL) in the local stack and in the tests.
 */
export const IDENTITY_SCHEMA = 'identity_dev';
/** The resource indicator of the back office; its tokens carry OPERATOR_AUDIENCE as `aud`. */
const OPS_RESOURCE = 'urn:rental:ops';
const CONSOLE_CLIENT_ID = 'console';

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

async function migrateIdentityProvider(db: Knex): Promise<void> {
  await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [IDENTITY_SCHEMA]);
  if (!(await db.schema.withSchema(IDENTITY_SCHEMA).hasTable('operators'))) {
    await db.schema.withSchema(IDENTITY_SCHEMA).createTable('operators', (table) => {
      table.string('id', 100).primary();
      table.string('name', 255).notNullable();
      table.string('email', 255).notNullable().unique();
      table.text('password_hash').notNullable();
      table.jsonb('roles').notNullable();
      table.string('client_id', 100).notNullable().unique();
      // oidc-provider compares client secrets itself, in plain text: it cannot take a hash.
      table.text('client_secret').notNullable();
    });
  }
}

export async function seedOperators(db: Knex, operators: SeedFile['operators']): Promise<number> {
  await migrateIdentityProvider(db);
  const table = () => db.withSchema(IDENTITY_SCHEMA).table('operators');
  const existing = new Map((await table().select('id', 'password_hash') as { id: string; password_hash: string }[]).map((row) => [row.id, row.password_hash]));
  const rows = await Promise.all(operators.map(async (operator) => {
    const stored = existing.get(operator.id);
    // A password that did not change keeps its hash, so loading the same file twice changes nothing.
    const keep = stored !== undefined && (await passwordMatches(operator.password, stored));
    return {
      id: operator.id,
      name: operator.name,
      email: operator.email.toLowerCase(),
      password_hash: keep ? stored : await hashPassword(operator.password),
      roles: JSON.stringify(operator.roles),
      client_id: operator.clientId,
      client_secret: operator.clientSecret,
    };
  }));
  if (rows.length > 0) await table().insert(rows).onConflict('id').merge();
  return rows.length;
}

interface OperatorRow {
  id: string;
  name: string;
  email: string;
  password_hash: string;
  roles: string[];
  client_id: string;
  client_secret: string;
}

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
  accessTokenTtlSeconds?: number;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid: string, error: string | null): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in: approval team</title>
<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:4rem auto}label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.4rem}button{margin-top:1rem;padding:.5rem 1rem}.error{color:#a00}</style></head>
<body><main><h1>Approval team sign-in</h1>
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
  const operators = () => db.withSchema(IDENTITY_SCHEMA).table<OperatorRow>('operators');
  const { default: Provider } = await import('oidc-provider');
  const { default: MemoryAdapter } = await import('oidc-provider/lib/adapters/memory_adapter.js' as string) as { default: new (name: string) => object };
  // A new key at every start: tokens of an earlier run stop verifying, as after a key rotation.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' };
  const consoleOrigins = new Set(options.consoleRedirectUris.map((uri) => new URL(uri).origin));

  const claimsOf = (operator: OperatorRow) => ({ name: operator.name, email: operator.email, [options.rolesClaim]: operator.roles });

  const provider = new Provider(issuer, {
    clients: [{
      client_id: CONSOLE_CLIENT_ID,
      token_endpoint_auth_method: 'none',
      redirect_uris: options.consoleRedirectUris,
      post_logout_redirect_uris: options.consoleRedirectUris.map((uri) => uri.replace(/\/callback$/, '/')),
      grant_types: ['authorization_code'],
      response_types: ['code'],
    }],
    // The operators' program clients come from the seeded table, so a seed after start is seen at once.
    adapter: (name: string) => (name === 'Client' ? {
      async find(clientId: string) {
        const operator = await operators().where({ client_id: clientId }).first();
        if (!operator) return undefined;
        return {
          client_id: operator.client_id,
          client_secret: operator.client_secret,
          grant_types: ['client_credentials'],
          response_types: [],
          redirect_uris: [],
          token_endpoint_auth_method: 'client_secret_basic',
        };
      },
      async upsert() {},
      async findByUid() { return undefined; },
      async findByUserCode() { return undefined; },
      async destroy() {},
      async revokeByGrantId() {},
      async consume() {},
    } : new MemoryAdapter(name)) as never,
    jwks: { keys: [signingKey as never] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => OPS_RESOURCE,
        useGrantedResource: async () => true,
        getResourceServerInfo: async () => ({
          scope: 'ops',
          audience: options.audience,
          accessTokenFormat: 'jwt',
          accessTokenTTL: options.accessTokenTtlSeconds ?? 3600,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    claims: { openid: ['sub'], profile: ['name', 'email'] },
    clientBasedCORS: (_ctx, origin) => consoleOrigins.has(origin),
    async findAccount(_ctx, sub) {
      const operator = await operators().where({ id: sub }).first();
      if (!operator) return undefined;
      return { accountId: operator.id, claims: async () => ({ sub: operator.id, ...claimsOf(operator) }) };
    },
    formats: {
      customizers: {
        // The operator's claims in every access token; a program's token (client credentials)
        // would name its client (ops-anna) as subject, so the operator behind it is put there, as
        // when the operator signs in (op-anna): the audit names one id either way.
        async jwt(_ctx, token, jwt) {
          const operator = 'accountId' in token && token.accountId
            ? await operators().where({ id: token.accountId }).first()
            : await operators().where({ client_id: token.clientId }).first();
          if (operator) Object.assign(jwt.payload, claimsOf(operator), { sub: operator.id });
          return jwt;
        },
      },
    },
    // The console is the company's own application: signing in is the whole consent.
    async loadExistingGrant(ctx) {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (!session?.accountId || !client) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile');
      grant.addResourceScope(OPS_RESOURCE, 'ops');
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
    if (req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(loginPage(details.uid, null));
      return;
    }
    if (req.method === 'POST' && path.endsWith('/login')) {
      const form = await readForm(req);
      const email = form.get('email') ?? '';
      const operator = await operators().where({ email: email.toLowerCase() }).first();
      const outcome = await signIns.check(email, form.get('password') ?? '', operator?.password_hash);
      if (outcome !== 'signed_in' || !operator) {
        const error = outcome === 'locked' ? `Too many failed sign-ins: try again in ${signIns.minutesLocked(email)} minutes.` : 'E-mail or password is wrong.';
        res.writeHead(401, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(loginPage(details.uid, error));
        return;
      }
      await provider.interactionFinished(req, res, { login: { accountId: operator.id } }, { mergeWithLastSubmission: false });
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
        if (!res.headersSent) res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`The sign-in could not continue: ${error.message}. Start again from the console.`);
      });
      return;
    }
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(options.port, host, resolve));
  return {
    issuer,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
