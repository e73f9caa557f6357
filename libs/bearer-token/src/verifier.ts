import { type JWTPayload, createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { DomainError } from '@rental/problem';

export interface BearerTokenVerifierOptions {
  issuer: string;
  audience: string;
  /** Names the issuer in the 503 detail when it cannot be reached ("the operators' identity provider"). */
  issuerLabel: string;
  /** Names the audience in the 401 detail ("the back office"). */
  audienceLabel: string;
}

/** Only asymmetric signatures: a token signed with `none` or a shared secret is never accepted. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

const JWKS_COOLDOWN_MS = 1000;

export const invalidToken = (detail: string, cause?: unknown) => new DomainError('unauthenticated', 'auth.invalid_token', detail, { cause });

/** A claim holding a list, as an array or a space- or comma-separated string. */
export function listClaim(claim: unknown): string[] {
  const values = Array.isArray(claim) ? claim : typeof claim === 'string' ? claim.split(/[\s,]+/) : [];
  return values.filter((value): value is string => typeof value === 'string' && value.length > 0);
}

/** The display name a token carries: name, else preferred_username, else email. */
export function displayNameOf(payload: JWTPayload): string | null {
  return [payload.name, payload.preferred_username, payload.email].find((value): value is string => typeof value === 'string' && value.length > 0) ?? null;
}

/**
 * Verifies bearer JWTs against the issuer's JWKS (found through its discovery document, cached by
 * jose and fetched again when a token names an unknown key): signature, issuer, audience and
 * expiry. Anything wrong is a 401 DomainError (`auth.invalid_token`); an issuer that cannot be
 * reached a 503 (`auth.issuer_unavailable`).
 */
export class BearerTokenVerifier {
  private keys?: Promise<ReturnType<typeof createRemoteJWKSet>>;

  constructor(private readonly options: BearerTokenVerifierOptions) {}

  private keySet(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    this.keys ??= (async () => {
      const response = await fetch(`${this.options.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(5000) });
      if (!response.ok) throw new Error(`discovery answered ${response.status}`);
      const discovery = (await response.json()) as { jwks_uri?: string };
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

  /** The verified claims; the token names a subject. */
  async verify(token: string): Promise<JWTPayload & { sub: string }> {
    let keys: ReturnType<typeof createRemoteJWKSet>;
    try {
      keys = await this.keySet();
    } catch (error) {
      throw new DomainError('unavailable', 'auth.issuer_unavailable', `${this.options.issuerLabel} cannot be reached right now.`, { cause: error });
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, { issuer: this.options.issuer, audience: this.options.audience, algorithms: ALGORITHMS }));
    } catch (error) {
      throw invalidToken(error instanceof errors.JWTExpired ? 'The token has expired.' : `The token is not valid for ${this.options.audienceLabel}.`, error);
    }
    if (!payload.sub) throw invalidToken('The token names no subject.');
    return payload as JWTPayload & { sub: string };
  }
}
