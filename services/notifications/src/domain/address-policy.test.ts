import { classifyAddress, ipLiteralOf } from './address-policy';

const strict = { allowPrivate: false };
const local = { allowPrivate: true };

describe('classifyAddress', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['224.0.0.251', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['::7f00:1', 'ipv4Compatible'],
    ['::a9fe:a9fe', 'ipv4Compatible'],
    ['::a00:1', 'ipv4Compatible'],
    ['::808:808', 'ipv4Compatible'],
    ['::2', 'ipv4Compatible'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['2002:a00:1::1', '6to4'],
    ['64:ff9b::a00:1', 'rfc6052'],
  ])('when the address is %s, then it is refused as %s', (address, range) => {
    expect(classifyAddress(address, strict)).toEqual({ allowed: false, range });
  });

  it.each(['93.184.216.34', '8.8.8.8', '100.63.255.255', '100.128.0.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'when the address %s is public, then it is allowed',
    (address) => {
      expect(classifyAddress(address, strict)).toEqual({ allowed: true });
    },
  );

  it('when private URLs are allowed, then loopback passes and every other special range is still refused', () => {
    expect(['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1'].map((address) => classifyAddress(address, local).allowed)).toEqual([true, true, true, true]);
    expect(['10.0.0.1', '169.254.169.254', '100.64.0.1', 'fd00::1', '0.0.0.0', '::'].map((address) => classifyAddress(address, local))).toEqual([
      { allowed: false, range: 'private' },
      { allowed: false, range: 'linkLocal' },
      { allowed: false, range: 'carrierGradeNat' },
      { allowed: false, range: 'uniqueLocal' },
      { allowed: false, range: 'unspecified' },
      { allowed: false, range: 'unspecified' },
    ]);
  });

  it('when the text is not an address, then it is refused', () => {
    expect(classifyAddress('example.com', strict)).toEqual({ allowed: false, range: 'invalid' });
  });
});

describe('ipLiteralOf', () => {
  it('when a URL host is an IP literal, then it is returned without brackets; a name gives undefined', () => {
    expect(ipLiteralOf(new URL('https://[::1]:8443/x').hostname)).toBe('::1');
    expect(ipLiteralOf(new URL('https://10.0.0.1/x').hostname)).toBe('10.0.0.1');
    // WHATWG URL turns these spellings of 127.0.0.1 into the dotted form first.
    expect(ipLiteralOf(new URL('https://2130706433/x').hostname)).toBe('127.0.0.1');
    expect(ipLiteralOf(new URL('https://0x7f.1/x').hostname)).toBe('127.0.0.1');
    expect(ipLiteralOf(new URL('https://hooks.example.com/x').hostname)).toBeUndefined();
  });
});
