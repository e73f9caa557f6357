import { z } from 'zod';

/** Crockford base32, 26 characters: the form of every id the API hands out (cases, carts, endpoints, …). */
export const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** An id in a path or body that must be a ULID; an id of another form can name nothing. */
export function ulid() {
  return z.string().regex(ULID_PATTERN);
}

/** The largest id an integer (int4) column holds: the ids of documents, items and callback requests. */
export const MAX_INTEGER_ID = 2_147_483_647;

/**
 * A path segment that must be an integer id: digits without a leading zero, at most
 * MAX_INTEGER_ID (anything else can name nothing), read as the number. The API description
 * shows the number (an integer from 1 to MAX_INTEGER_ID), as the ids in bodies are.
 */
export function integerId(description: string) {
  return z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/)
    .pipe(z.coerce.number<string>().int().min(1).max(MAX_INTEGER_ID))
    .describe(description);
}
