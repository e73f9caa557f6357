import type { IncomingMessage } from 'node:http';
import { parseConfig } from '@rental/config';
import { clientAddressResolver, trustedProxiesVariable } from './client-address';

const request = (socketAddress: string, forwardedFor?: string) =>
  ({
    socket: { remoteAddress: socketAddress },
    connection: { remoteAddress: socketAddress },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  }) as unknown as IncomingMessage;

describe('client address', () => {
  it('when no proxy is trusted, then X-Forwarded-For is ignored and the socket address is the client', () => {
    expect(clientAddressResolver([])(request('198.51.100.9', '203.0.113.7'))).toBe('198.51.100.9');
  });

  it('when the load balancer is trusted, then the address it appended is the client, not one the client wrote before it', () => {
    const resolve = clientAddressResolver(['10.0.0.0/8']);
    expect(resolve(request('10.1.2.3', '203.0.113.7'))).toBe('203.0.113.7');
    expect(resolve(request('10.1.2.3', '192.0.2.1, 203.0.113.7'))).toBe('203.0.113.7');
    expect(resolve(request('198.51.100.9', '203.0.113.7'))).toBe('198.51.100.9');
  });

  it('when TRUSTED_PROXIES is read, then it is a list of addresses and ranges, and anything else is refused', () => {
    expect(parseConfig({ TRUSTED_PROXIES: trustedProxiesVariable() }, { TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.1' })).toEqual({
      TRUSTED_PROXIES: ['10.0.0.0/8', '192.168.1.1'],
    });
    expect(parseConfig({ TRUSTED_PROXIES: trustedProxiesVariable() }, {})).toEqual({ TRUSTED_PROXIES: [] });
    expect(() => parseConfig({ TRUSTED_PROXIES: trustedProxiesVariable() }, { TRUSTED_PROXIES: 'lb.internal' })).toThrow(
      'TRUSTED_PROXIES must be a comma-separated list of IP addresses or CIDR ranges',
    );
  });
});
