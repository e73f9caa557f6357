import { createSecretKey, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { ExpiringMap, loadThrough } from '@rental/expiring-map';
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
}

/** INTERNAL_IDENTITY_SECRET: required, no default; every process of one deployment shares it. */
export const identityVariables = {
  INTERNAL_IDENTITY_SECRET: z.string({ message: 'is required' }).min(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters`),
};

const claimsSchema = z.object({
  iss: z.string().min(1),
  sub: z.string().min(1).optional(),
  roles: z.array(z.string()).default([]),
  exp: z.number(),
});

/** A signed token is reused for half its lifetime, so a receiver always has at least 30 s to use it. */
const REUSE_SIGNED_MS = (IDENTITY_TTL_SECONDS * 1000) / 2;
/** Bounds the verified tokens kept: one per caller, partner and roles in the last minute is far fewer. */
const MOST_VERIFIED_KEPT = 10_000;

export class IdentityRefused extends Error {}

/**
 * Signs and verifies identities with the deployment's shared secret (the key object is made once).
 * An identity names who calls, not which request: the request id travels beside it. So one token
 * serves every call of the same caller, partner and roles for half its lifetime, and a token
 * verified once is believed until it expires; signing and verifying on every hop cost each
 * process about 5 % of its CPU under load (docs/benchmarks.md).
 */
export class IdentityKeys {
  private readonly key: KeyObject;
  /** Unbounded: the key space (callers × partners × roles) is small. */
  private readonly signed: ExpiringMap<string, Promise<string>>;
  /** Each verified token is believed until its own expiry. */
  private readonly verified: ExpiringMap<string, Identity>;

  constructor(
    secret: string,
    private readonly now: () => number = Date.now,
  ) {
    if (secret.length < MIN_SECRET_LENGTH) throw new Error(`the internal identity secret must be at least ${MIN_SECRET_LENGTH} characters`);
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
    this.signed = new ExpiringMap({ ttlMs: REUSE_SIGNED_MS, now });
    this.verified = new ExpiringMap({ ttlMs: IDENTITY_TTL_SECONDS * 1000, maxEntries: MOST_VERIFIED_KEPT, now });
  }

  sign(identity: Identity): Promise<string> {
    const cacheKey = JSON.stringify([identity.caller, identity.partnerId ?? null, identity.roles]);
    return loadThrough(this.signed, cacheKey, () => {
      const issuedAt = Math.floor(this.now() / 1000);
      const jws = new SignJWT({ roles: identity.roles })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(identity.caller)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + IDENTITY_TTL_SECONDS);
      if (identity.partnerId) jws.setSubject(identity.partnerId);
      return jws.sign(this.key);
    });
  }

  /** The identity a token vouches for; IdentityRefused when it is missing, expired, altered or signed with another key. */
  async verify(token: unknown): Promise<Identity> {
    if (typeof token !== 'string' || !token) throw new IdentityRefused('no signed identity');
    const kept = this.verified.get(token);
    if (kept) return kept;
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        requiredClaims: ['iss', 'exp'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(this.now()),
      }));
    } catch (error) {
      throw new IdentityRefused(`signed identity refused: ${(error as Error).message}`);
    }
    const claims = claimsSchema.safeParse(payload);
    if (!claims.success) throw new IdentityRefused('signed identity has malformed claims');
    // Frozen: the same object answers every call that carries this token.
    const identity: Identity = Object.freeze({ caller: claims.data.iss, partnerId: claims.data.sub, roles: Object.freeze(claims.data.roles) as string[] });
    // Believed until its own expiry, without the clock tolerance jose grants a fresh check.
    this.verified.set(token, identity, claims.data.exp * 1000);
    return identity;
  }
}
