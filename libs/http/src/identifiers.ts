import { z } from 'zod';

/** Crockford base32, 26 characters: the form of every id the API hands out (cases, carts, endpoints, …). */
export const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** An id in a path or body that must be a ULID; an id of another form can name nothing. */
export function ulid() {
  return z.string().regex(ULID_PATTERN);
}
