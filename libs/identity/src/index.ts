import { createSecretKey, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { z } from 'zod';

/**
 * The one header of an internal hop (HTTP header, gRPC metadata): a compact JWS (HS256) in which
 * the gateway, or the service making a gRPC call, vouches for who is calling. No service believes
 * a bare partner header; it believes this signature.
 */
export const IDENTITY_HEADER = 'x-rental-identity';
/** gRPC metadata naming the calling service; it must match the `iss` of the signed identity. */
export const CALLER_HEADER = 'x-rental-caller';

/** Long enough for a slow upload to reach its service, short enough that a captured token is soon useless. */
export const IDENTITY_TTL_SECONDS = 60;
const CLOCK_TOLERANCE_SECONDS = 5;
const MIN_SECRET_LENGTH = 32;

export interface Identity {
  /** `gateway` or the name of the calling service. */
  caller: string;
  /** Absent on routes that speak for no partner (lender and signing callbacks, the console, customer links). */
  partnerId?: string;
  roles: string[];
  requestId?: string;
}

/** INTERNAL_IDENTITY_SECRET: required, no default; every process of one deployment shares it. */
export const identityVariables = {
  INTERNAL_IDENTITY_SECRET: z.string({ message: 'is required' }).min(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters`),
};

const claimsSchema = z.object({
  iss: z.string().min(1),
  sub: z.string().min(1).optional(),
  roles: z.array(z.string()).default([]),
  rid: z.string().optional(),
  exp: z.number(),
});

export class IdentityRefused extends Error {}

/**
 * One request makes several calls for the same identity (checkout: three gRPC calls), so a token
 * signed for it is reused while it has most of its life left, and a token verified once is
 * believed again until it expires. Both caches are bounded: past CACHE_ENTRIES they start over.
 */
const REUSE_SIGNED_MS = 10_000;
const CACHE_ENTRIES = 10_000;

/** Signs and verifies identities with the deployment's shared secret (the key object is made once). */
export class IdentityKeys {
  private readonly key: KeyObject;
  private readonly signed = new Map<string, { token: Promise<string>; until: number }>();
  private readonly verified = new Map<string, { identity: Identity; until: number }>();

  constructor(secret: string) {
    if (secret.length < MIN_SECRET_LENGTH) throw new Error(`the internal identity secret must be at least ${MIN_SECRET_LENGTH} characters`);
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  sign(identity: Identity): Promise<string> {
    const cacheKey = JSON.stringify([identity.caller, identity.partnerId, identity.roles, identity.requestId]);
    const now = Date.now();
    const cached = this.signed.get(cacheKey);
    if (cached && cached.until > now) return cached.token;
    const claims: Record<string, unknown> = { roles: identity.roles };
    if (identity.requestId) claims.rid = identity.requestId;
    const jws = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer(identity.caller).setIssuedAt().setExpirationTime(`${IDENTITY_TTL_SECONDS}s`);
    if (identity.partnerId) jws.setSubject(identity.partnerId);
    const token = jws.sign(this.key);
    remember(this.signed, cacheKey, { token, until: now + REUSE_SIGNED_MS });
    return token;
  }

  /** The identity a token vouches for; IdentityRefused when it is missing, expired, altered or signed with another key. */
  async verify(token: unknown): Promise<Identity> {
    if (typeof token !== 'string' || !token) throw new IdentityRefused('no signed identity');
    const cached = this.verified.get(token);
    if (cached && cached.until > Date.now()) return cached.identity;
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['iss', 'exp'], clockTolerance: CLOCK_TOLERANCE_SECONDS }));
    } catch (error) {
      throw new IdentityRefused(`signed identity refused: ${(error as Error).message}`);
    }
    const claims = claimsSchema.safeParse(payload);
    if (!claims.success) throw new IdentityRefused('signed identity has malformed claims');
    const identity = { caller: claims.data.iss, partnerId: claims.data.sub, roles: claims.data.roles, requestId: claims.data.rid };
    // Believed again until the expiry jwtVerify itself would still accept.
    remember(this.verified, token, { identity, until: (claims.data.exp + CLOCK_TOLERANCE_SECONDS) * 1000 });
    return identity;
  }
}

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= CACHE_ENTRIES) cache.clear();
  cache.set(key, value);
}
