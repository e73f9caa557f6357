import { lookup } from 'node:dns/promises';
import type { ResolvedAddress } from '../domain/model';
import type { HostResolver } from '../domain/ports';

/** The system resolver (hosts file included), every address of the name, bounded in time. */
export class DnsResolver implements HostResolver {
  constructor(private readonly timeoutMs = 3000) {}

  async resolve(host: string): Promise<ResolvedAddress[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`resolving ${host} took longer than ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      const addresses = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
      return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
    } finally {
      clearTimeout(timer);
    }
  }
}
