import { type ServiceName, defaultHttpPort } from '@rental/config';
import { IDENTITY_HEADER, IdentityKeys } from '@rental/identity';
import type { Measurement } from './load';

/**
 * The reference of a row through the gateway: the same request sent straight to the owning
 * service, with the identity the gateway would sign for acme's API user (valid for a minute, so
 * it is signed again for every row).
 */
export class DirectAccess {
  private readonly keys: IdentityKeys;

  constructor(private readonly stack: { identitySecret: string; portBase: number }) {
    this.keys = new IdentityKeys(stack.identitySecret);
  }

  url(service: ServiceName): string {
    return `http://127.0.0.1:${defaultHttpPort(service, this.stack.portBase)}`;
  }

  async headers(): Promise<Record<string, string>> {
    return { [IDENTITY_HEADER]: await this.keys.sign({ caller: 'gateway', partnerId: 'acme', roles: ['api_user'] }) };
  }
}

/** Throughput against the direct row of the same run, printed next to the figures. */
export function againstDirect<T extends Measurement>(row: T, direct: Measurement): T {
  row.label += ` — ${(row.requestsPerSecond / direct.requestsPerSecond).toFixed(2)}× direct`;
  return row;
}
