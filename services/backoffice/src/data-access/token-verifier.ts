import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { DomainError } from '@rental/problem';
import { OPERATOR_ROLES, Operator, OperatorRole } from '../domain/roles';

export interface TokenVerifierOptions {
  issuer: string;
  audience: string;
  rolesClaim: string;
}

/** Only asymmetric signatures: a token signed with `none` or a shared secret is never accepted. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

const JWKS_COOLDOWN_MS = 1000;

const unauthenticated = (detail: string, cause?: unknown) => new DomainError('unauthenticated', 'auth.invalid_token', detail, { cause });

function rolesOf(claim: unknown): OperatorRole[] {
  const values = Array.isArray(claim) ? claim : typeof claim === 'string' ? claim.split(/[\s,]+/) : [];
  return values.filter((value): value is OperatorRole => (OPERATOR_ROLES as readonly unknown[]).includes(value));
}

/**
 * Verifies operators' bearer JWTs against the issuer's JWKS (found through its discovery
 * document, cached by jose and fetched again when a token names an unknown key): signature,
 * issuer, audience and expiry.
 */
export class JwtVerifier {
  private keys?: Promise<ReturnType<typeof createRemoteJWKSet>>;

  constructor(private readonly options: TokenVerifierOptions) {}

  private keySet(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    this.keys ??= (async () => {
      const response = await fetch(`${this.options.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(5000) });
      if (!response.ok) throw new Error(`discovery answered ${response.status}`);
      const discovery = await response.json() as { jwks_uri?: string };
      if (!discovery.jwks_uri) throw new Error('discovery names no jwks_uri');
      // A token with an unknown kid (a rotated key) fetches the JWKS again, at most once a second.
      return createRemoteJWKSet(new URL(discovery.jwks_uri), { cooldownDuration: JWKS_COOLDOWN_MS });
    })();
    // A failed discovery is tried again with the next request, not remembered.
    this.keys.catch(() => {
      this.keys = undefined;
    });
    return this.keys;
  }

  async verify(token: string): Promise<Operator> {
    let keys: ReturnType<typeof createRemoteJWKSet>;
    try {
      keys = await this.keySet();
    } catch (error) {
      throw new DomainError('unavailable', 'auth.issuer_unavailable', 'The operators\' identity provider cannot be reached right now.', { cause: error });
    }
    try {
      const { payload } = await jwtVerify(token, keys, { issuer: this.options.issuer, audience: this.options.audience, algorithms: ALGORITHMS });
      if (!payload.sub) throw unauthenticated('The token names no subject.');
      const name = [payload.name, payload.preferred_username, payload.email].find((value): value is string => typeof value === 'string' && value.length > 0) ?? null;
      return { id: payload.sub, name, roles: rolesOf(payload[this.options.rolesClaim]) };
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw unauthenticated(error instanceof errors.JWTExpired ? 'The token has expired.' : 'The token is not valid for the back office.', error);
    }
  }
}
