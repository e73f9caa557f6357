import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import type { KeyLike } from 'jose';

/** Who a minted token names unless told otherwise: its subject, audience and claims. */
export interface TokenDefaults {
  subject: string;
  audience: string;
  claims: Record<string, unknown>;
}

/**
 * An OpenID Connect issuer the test controls: a JWKS served over HTTP with keys it mints with, so
 * every failure is exactly one thing wrong with an otherwise good token.
 */
export class TestIssuer {
  readonly keys: { kid: string; privateKey: KeyLike; jwk: Record<string, unknown> }[] = [];
  jwksFetches = 0;
  private server?: http.Server;
  url = '';

  constructor(private readonly defaults: TokenDefaults) {}

  async addKey(): Promise<string> {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const kid = `key-${this.keys.length + 1}`;
    this.keys.push({ kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } });
    return kid;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      if (req.url === '/.well-known/openid-configuration') {
        res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ issuer: this.url, jwks_uri: `${this.url}/jwks`, token_endpoint: `${this.url}/token` }));
      } else if (req.url === '/jwks') {
        this.jwksFetches += 1;
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys: this.keys.map((key) => key.jwk) }));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  async mint(
    claims: Record<string, unknown> = {},
    options: { kid?: string; issuer?: string; audience?: string; subject?: string; expiresIn?: string | number } = {},
  ): Promise<string> {
    const key = this.keys.find((candidate) => candidate.kid === (options.kid ?? this.keys[0]?.kid)) ?? this.keys[0];
    if (!key) throw new Error('no key');
    return new SignJWT({ ...this.defaults.claims, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
      .setSubject(options.subject ?? this.defaults.subject)
      .setIssuer(options.issuer ?? this.url)
      .setAudience(options.audience ?? this.defaults.audience)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '10m')
      .sign(key.privateKey);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.close(() => resolve());
      this.server?.closeAllConnections();
    });
  }
}

/** The token with its header saying alg none and no signature. */
export function unsigned(token: string): string {
  const [, payload] = token.split('.');
  return `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
}
