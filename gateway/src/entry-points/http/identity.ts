import type { IncomingMessage } from 'node:http';
import { isInternalHeader } from '@rental/http';
import { IDENTITY_HEADER, IdentityKeys } from '@rental/identity';

/** What the gateway vouches for; nothing (no partner, no roles) on routes that speak for no partner. */
export interface AssertedPartner {
  partnerId: string;
  roles: string[];
}

/**
 * The one step before any request leaves the gateway for a service: whatever internal headers
 * the client sent are dropped, and the identity the gateway asserts (partner if any, roles,
 * caller `gateway`) is signed into `x-rental-identity`; the request id travels in its own header. Every Forward (proxy.ts)
 * calls it, so a new route that proxies through `proxies[service]` is signed without more code.
 */
export async function assertIdentity(req: IncomingMessage, keys: IdentityKeys, partner?: AssertedPartner): Promise<void> {
  for (const name of Object.keys(req.headers)) if (isInternalHeader(name)) delete req.headers[name];
  req.headers[IDENTITY_HEADER] = await keys.sign({ caller: 'gateway', partnerId: partner?.partnerId, roles: partner?.roles ?? [] });
}
