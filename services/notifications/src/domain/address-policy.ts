import ipaddr from 'ipaddr.js';

export interface AddressPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http and loopback (127.0.0.0/8, ::1) are allowed, nothing else. */
  allowPrivate: boolean;
}

export type AddressVerdict = { allowed: true } | { allowed: false; range: string };

const LOOPBACK = 'loopback';
const IPV4_COMPATIBLE = 'ipv4Compatible';

/**
 * Whether a webhook may be sent to this address. Deny by default: only global unicast is
 * allowed; every special range (private, loopback, link-local, carrier-grade NAT, multicast,
 * unspecified, broadcast, reserved, unique-local, 6to4, Teredo, NAT64...) is refused. An
 * IPv4-mapped IPv6 address is judged by the IPv4 address it carries; the deprecated
 * IPv4-compatible addresses (::/96 other than :: and ::1, e.g. ::7f00:1) are refused outright,
 * since some stacks route them to the IPv4 address they carry.
 */
export function classifyAddress(address: string, policy: AddressPolicy): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, range: 'invalid' };
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.kind() === 'ipv6' && isIpv4Compatible(parsed as ipaddr.IPv6) ? IPV4_COMPATIBLE : parsed.range();
  if (range === 'unicast') return { allowed: true };
  if (range === LOOPBACK && policy.allowPrivate) return { allowed: true };
  return { allowed: false, range };
}

/** ::/96 with something in its last 32 bits beyond ::1. */
function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  const parts = address.parts;
  return parts.slice(0, 6).every((part) => part === 0) && ((parts[6] ?? 0) !== 0 || (parts[7] ?? 0) > 1);
}

/** The literal of an IP host as WHATWG URL writes it ("[::1]" → "::1"), or undefined for a name. */
export function ipLiteralOf(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : undefined;
}

const rangeNames: Record<string, string> = {
  private: 'a private address',
  loopback: 'a loopback address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
  uniqueLocal: 'an IPv6 unique-local address',
  ipv4Compatible: 'an IPv4-compatible IPv6 address (::/96)',
};

export function describeRange(range: string): string {
  return rangeNames[range] ?? `a non-public address (${range})`;
}
