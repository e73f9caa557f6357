import { randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Generated API keys: `sbx_` or `prd_`, 34 random characters of [A-Za-z0-9], then a 6-character
 * checksum, the CRC32 (IEEE, as zlib computes it) of everything before it written in base 62
 * (0-9A-Za-z) and left-padded with 0 — GitHub's token scheme, so that a secret scanner can tell a
 * leaked key from noise offline (docs/api-keys.md publishes the pattern).
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 34;
const CHECKSUM_LENGTH = 6;

export const GENERATED_KEY_PATTERN = /^(sbx|prd)_[A-Za-z0-9]{40}$/;

/** How many characters of a key its representation shows (`prefix`). */
export const KEY_PREFIX_LENGTH = 12;

export function prefixOfEnvironment(environment: string): string {
  return environment === 'production' ? 'prd_' : 'sbx_';
}

export function base62Checksum(text: string): string {
  let value = crc32(Buffer.from(text, 'utf8'));
  let digits = '';
  do {
    digits = ALPHABET[value % 62] + digits;
    value = Math.floor(value / 62);
  } while (value > 0);
  return digits.padStart(CHECKSUM_LENGTH, '0');
}

export function generateApiKey(environment: string): string {
  let body = prefixOfEnvironment(environment);
  for (let index = 0; index < RANDOM_LENGTH; index += 1) body += ALPHABET[randomInt(ALPHABET.length)];
  return body + base62Checksum(body);
}

/** Whether a key has the generated format and its checksum matches (what a secret scanner checks). */
export function hasValidChecksum(key: string): boolean {
  if (!GENERATED_KEY_PATTERN.test(key)) return false;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  return base62Checksum(body) === key.slice(-CHECKSUM_LENGTH);
}
