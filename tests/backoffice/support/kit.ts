import type { ApiResponse } from '@rental/testkit';
import { DEMO_SEED_FILE, readSeedFile } from '@rental/stack';
import { newCase, newPartner, Owner } from '../../case-workflow/support/kit';
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

interface StackAddress { gatewayUrl: string }

export async function discovery(stack: StackAddress = sharedStack()): Promise<{ issuer: string; token_endpoint: string; authorization_endpoint: string; jwks_uri: string }> {
  const config = await (await fetch(`${stack.gatewayUrl}/ops/v1/session-config`)).json() as { issuer: string };
  return await (await fetch(`${config.issuer}/.well-known/openid-configuration`)).json() as never;
}

/** An operator's access token by client credentials, as a program gets one. */
export async function operatorToken(role: Role, stack: StackAddress = sharedStack()): Promise<string> {
  const operator = operatorWith(role);
  return clientCredentialsToken(`${stack.gatewayUrl}/ops/v1/session-config`, operator.clientId, operator.clientSecret);
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

