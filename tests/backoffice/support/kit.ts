import { createHash, randomBytes } from 'node:crypto';
import { type ApiResponse, operatorDiscovery } from '@rental/testkit';
import { DEMO_SEED_FILE, readSeedFile } from '@rental/stack/fixture';
import { newCase, newPartner, Owner } from '../../case-workflow/support/kit';
import type { Page } from 'playwright-core';
import type { WatchedBrowser } from '../../support/browser';
import { BearerClient, clientCredentialsToken } from '../../support/oidc';
import { sharedStack } from '../../support/shared-stack';

export { expectProblem, expectViolations, movesOf, query, simulate, EventListener } from '../../case-workflow/support/kit';
export { newCase, newPartner, sharedStack };
export type { Owner };

const OPERATORS = readSeedFile(DEMO_SEED_FILE).operators;
export type Role = 'viewer' | 'reviewer' | 'approver';

/** The fixture's operator whose highest role is `role` (Vera views, Rene reviews, Anna approves). */
export function operatorWith(role: Role) {
  const operator = OPERATORS.find((candidate) => candidate.roles.at(-1) === role);
  if (!operator) throw new Error(`no operator with ${role} in the fixture`);
  return operator;
}

interface StackAddress {
  gatewayUrl: string;
}

/** The console in a new context of `browser`, signed in through the login form as the operator of `role`, on its queue. */
export async function consolePageAs(browser: WatchedBrowser, role: Role): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const operator = operatorWith(role);
  await page.goto(`${sharedStack().gatewayUrl}/console`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('E-mail').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  await page.getByRole('button', { name: 'Sign in' }).press('Enter');
  await page.getByRole('heading', { name: 'Queue' }).waitFor();
  return page;
}

export async function discovery(
  stack: StackAddress = sharedStack(),
): Promise<{ issuer: string; token_endpoint: string; authorization_endpoint: string; jwks_uri: string }> {
  return operatorDiscovery(stack.gatewayUrl);
}

/** An operator's access token by client credentials, as a program gets one. */
export async function operatorToken(role: Role, stack: StackAddress = sharedStack()): Promise<string> {
  const operator = operatorWith(role);
  return clientCredentialsToken(`${stack.gatewayUrl}/ops/v1/session-config`, operator.clientId, operator.clientSecret);
}

/** A browser's visit: the cookies the provider set, sent back on each request. */
export class Visit {
  private readonly cookies = new Map<string, string>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return response;
  }
}

/**
 * The console's sign-in as the browser does it: a fresh authorization request with PKCE, which
 * lands on the provider's sign-in form; `submit` posts an e-mail and password to it.
 */
export async function consoleSignIn(stack: StackAddress = sharedStack()) {
  const { authorization_endpoint: authorize, token_endpoint: tokenEndpoint, issuer } = await discovery(stack);
  const visit = new Visit();
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = `${stack.gatewayUrl}/console/callback`;
  const url = new URL(authorize);
  url.search = new URLSearchParams({
    client_id: 'console',
    response_type: 'code',
    scope: 'openid profile',
    state: randomBytes(8).toString('hex'),
    redirect_uri: redirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const started = await visit.fetch(url.toString());
  const interaction = new URL(started.headers.get('location') ?? '', issuer).pathname;
  return {
    interaction,
    submit: (email: string, password: string) =>
      visit.fetch(`${issuer}${interaction}/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password }).toString(),
      }),
    /** After a successful submit: follows the provider's redirects to the console's callback and trades its code for the access token. */
    async token(signedIn: Response): Promise<string> {
      let location = signedIn.headers.get('location');
      for (let hop = 0; location && !location.startsWith(redirectUri) && hop < 10; hop += 1) {
        location = (await visit.fetch(new URL(location, issuer).toString())).headers.get('location');
      }
      const code = location ? new URL(location).searchParams.get('code') : null;
      if (!code) throw new Error('the sign-in did not come back to the console with a code');
      const response = await fetch(tokenEndpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: 'console',
          code_verifier: verifier,
        }).toString(),
      });
      const body = (await response.json()) as { access_token?: string };
      if (response.status !== 200 || !body.access_token) throw new Error(`token endpoint answered ${response.status}`);
      return body.access_token;
    },
  };
}

/** An access token as the console gets one: the operator's password, then the authorization code with PKCE. */
export async function consoleToken(role: Role, stack: StackAddress = sharedStack()): Promise<string> {
  const operator = operatorWith(role);
  const signIn = await consoleSignIn(stack);
  return signIn.token(await signIn.submit(operator.email, operator.password));
}

/** The back office as an operator (or nobody, with no token) calls it. */
export class Ops extends BearerClient {
  constructor(token: string | null, stack: StackAddress = sharedStack()) {
    super(token, stack.gatewayUrl);
  }

  static async as(role: Role, stack: StackAddress = sharedStack()): Promise<Ops> {
    return new Ops(await operatorToken(role, stack), stack);
  }

  put(path: string, body?: unknown): Promise<ApiResponse> {
    return this.send('PUT', path, body === undefined ? undefined : JSON.stringify(body));
  }

  postRaw(path: string, rawBody: string): Promise<ApiResponse> {
    return this.send('POST', path, rawBody);
  }
}

/** A partner of its own with one case (submitted to finance review at checkout). */
export async function partnerCase(options: Parameters<typeof newCase>[1] = {}): Promise<{ owner: Owner; caseId: string; quoteId: string }> {
  const owner = await newPartner();
  const created = await newCase(owner, options);
  return { owner, ...created };
}

/** The documents schema, for the few facts no API shows (a partner's upload is the usual way in). */
export { query as documentsQuery } from '../../documents/support/kit';
