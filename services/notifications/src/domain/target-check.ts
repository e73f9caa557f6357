import { AddressPolicy, classifyAddress, describeRange } from './address-policy';
import type { WebhookUrl } from './webhook-url';
import type { HostResolver } from './ports';
import type { ResolvedAddress } from './model';

export type TargetCheck =
  { ok: true; addresses: ResolvedAddress[] } | { ok: false; code: 'webhook.url_not_public' | 'webhook.url_unresolvable'; message: string };

const familyOf = (address: string): 4 | 6 => (address.includes(':') ? 6 : 4);

/**
 * Resolves the host of a webhook URL and accepts it only when every address is allowed: one
 * private address among public ones would let the connection land inside. The caller connects
 * to one of the returned addresses, never to a second lookup of the name, so a name that
 * changes its answer (DNS rebinding) cannot reach an address that was not checked.
 */
export async function checkTarget(target: WebhookUrl, resolver: HostResolver, policy: AddressPolicy): Promise<TargetCheck> {
  let addresses: ResolvedAddress[];
  if (target.ipLiteral) {
    addresses = [{ address: target.ipLiteral, family: familyOf(target.ipLiteral) }];
  } else {
    try {
      addresses = await resolver.resolve(target.host);
    } catch {
      return { ok: false, code: 'webhook.url_unresolvable', message: `The host ${target.host} cannot be resolved.` };
    }
    if (addresses.length === 0) return { ok: false, code: 'webhook.url_unresolvable', message: `The host ${target.host} has no address.` };
  }
  for (const { address } of addresses) {
    const verdict = classifyAddress(address, policy);
    if (!verdict.allowed) {
      const subject = target.ipLiteral ? address : `${target.host} resolves to ${address}, which`;
      return { ok: false, code: 'webhook.url_not_public', message: `The URL must be publicly reachable: ${subject} is ${describeRange(verdict.range)}.` };
    }
  }
  return { ok: true, addresses };
}
