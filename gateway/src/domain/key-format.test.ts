import { crc32 } from 'node:zlib';
import { GENERATED_KEY_PATTERN, base62Checksum, generateApiKey, hasValidChecksum } from './key-format';

describe('generated API keys', () => {
  it('when a production key is generated, then it is prd_ with 40 characters and a valid checksum', () => {
    const key = generateApiKey('production');
    expect(key).toMatch(GENERATED_KEY_PATTERN);
    expect(key.startsWith('prd_')).toBe(true);
    expect(hasValidChecksum(key)).toBe(true);
  });

  it('when a sandbox key is generated, then it starts with sbx_', () => {
    expect(generateApiKey('sandbox').startsWith('sbx_')).toBe(true);
  });

  it('when the checksum is computed, then it is the zlib CRC32 in base 62, left-padded to 6', () => {
    const body = 'prd_abcdefghijklmnopqrstuvwxyzABCDEFGH';
    let value = crc32(body);
    let expected = '';
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    while (value > 0) {
      expected = alphabet[value % 62] + expected;
      value = Math.floor(value / 62);
    }
    expect(base62Checksum(body)).toBe(expected.padStart(6, '0'));
    expect(base62Checksum('')).toBe('000000');
  });

  it('when one character of a key changes, then its checksum no longer matches', () => {
    const key = generateApiKey('sandbox');
    const changed = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11);
    expect(hasValidChecksum(changed)).toBe(false);
  });

  it('when a fixture key is checked, then it is not a generated key', () => {
    expect(hasValidChecksum('sbx_acme_7f3c2a91d4e6b8f0a1c3e5d7b9f1a2c4')).toBe(false);
  });
});
