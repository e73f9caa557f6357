import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: what the customer's link carries. */
export function newCustomerToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored of a token: its SHA-256, so a read of the table opens no quote. */
export function hashCustomerToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Tokens are 43 URL-safe characters; anything else cannot be one and is not looked up. */
export function looksLikeCustomerToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}
