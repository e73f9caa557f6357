import { ApiClient, ApiResponse, operatorAccessToken, operatorDiscovery } from '@rental/testkit';
import { DEMO_SEED_FILE, readSeedFile } from '@rental/stack';
import { newCase, newPartner, Owner } from '../../case-workflow/support/kit';
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
  return operatorDiscovery(stack.gatewayUrl);
}

/** An access token by client credentials (HTTP Basic, no other parameter), as a program gets one. */
export async function operatorToken(role: Role, stack: StackAddress = sharedStack()): Promise<string> {
  return operatorAccessToken(stack.gatewayUrl, operatorWith(role));
}

/** The back office as an operator (or nobody, with no token) calls it. */
export class Ops {
  private readonly api: ApiClient;

  constructor(readonly token: string | null, stack: StackAddress = sharedStack()) {
    this.api = new ApiClient(stack.gatewayUrl);
  }

  static async as(role: Role, stack: StackAddress = sharedStack()): Promise<Ops> {
    return new Ops(await operatorToken(role, stack), stack);
  }

  private headers(): Record<string, string> {
    return this.token ? { Authorization: `Bearer ${this.token}` } : {};
  }

  get(path: string): Promise<ApiResponse> {
    return this.api.get(path, { key: null, headers: this.headers() });
  }

  post(path: string, body?: unknown): Promise<ApiResponse> {
    return this.api.post(path, body, { key: null, headers: this.headers() });
  }

  postRaw(path: string, rawBody: string): Promise<ApiResponse> {
    return this.api.request('POST', path, { key: null, rawBody, headers: { ...this.headers(), 'Content-Type': 'application/json' } });
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

