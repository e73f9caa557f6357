import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import { z } from 'zod';

/**
 * TRUSTED_PROXIES: the addresses or CIDRs (comma-separated) of the load balancers in front of
 * the gateway. Empty (the default) trusts none: the socket address is the client.
 */
export function trustedProxiesVariable() {
  return z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine((entries) => {
      try {
        proxyAddr.compile(entries);
        return true;
      } catch {
        return false;
      }
    }, 'must be a comma-separated list of IP addresses or CIDR ranges');
}

export type ClientAddress = (req: IncomingMessage) => string;

/**
 * The client's address: X-Forwarded-For is read from the right, one hop per trusted proxy, so a
 * client cannot pick its own address by sending the header, and behind a load balancer each
 * client keeps its own.
 */
export function clientAddressResolver(trustedProxies: string[]): ClientAddress {
  const trust = proxyAddr.compile(trustedProxies);
  return (req) => proxyAddr(req, trust);
}
