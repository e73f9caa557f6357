import { validationFailed, violation } from '@rental/problem';
import type { AddressPolicy } from './address-policy';
import { ipLiteralOf } from './address-policy';

const MAX_URL_LENGTH = 2048;
/** C0 controls, DEL and C1 controls. */
const hasControlCharacter = (text: string) =>
  [...text].some((character) => {
    const code = character.codePointAt(0) as number;
    return code < 0x20 || (code >= 0x7f && code <= 0x9f);
  });

export interface WebhookUrl {
  /** As the partner wrote it. */
  raw: string;
  url: URL;
  /** Lower-case scheme and host, no default port, no trailing slash, no fragment. */
  normalized: string;
  /** Host name or IP literal without brackets. */
  host: string;
  ipLiteral?: string;
}

function refuse(code: string, message: string): never {
  throw validationFailed([violation('url', code, message)]);
}

/**
 * The form two registrations are compared in: WHATWG URL already lower-cases scheme and host,
 * drops the default port and canonicalizes IP literals; a trailing dot of the host, trailing
 * slashes of the path and the fragment (never sent) do not make another endpoint.
 */
export function normalizeUrl(url: URL): string {
  const host = url.hostname.replace(/\.$/, '');
  const port = url.port ? `:${url.port}` : '';
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${host}${port}${path}${url.search}`;
}

/** Checks the form of a webhook URL; whether its host is public is checked by resolving it. */
export function parseWebhookUrl(raw: string, policy: AddressPolicy): WebhookUrl {
  if (raw.length > MAX_URL_LENGTH) refuse('validation.too_big', `The URL must be at most ${MAX_URL_LENGTH} characters long.`);
  // WHATWG URL silently drops tabs and newlines and trims control characters, so the URL called would differ from the one stored.
  if (hasControlCharacter(raw)) refuse('validation.format', 'The URL must not contain control characters (tab, newline, NUL and the like).');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    refuse('validation.format', 'This value is not a valid URL.');
  }
  const allowedSchemes = policy.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!allowedSchemes.includes(url.protocol)) refuse('webhook.url_not_https', 'The URL must use https.');
  if (url.username || url.password) refuse('validation.format', 'The URL must not contain credentials.');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!host) refuse('validation.format', 'This value is not a valid URL.');
  return { raw, url, normalized: normalizeUrl(url), host, ipLiteral: ipLiteralOf(url.hostname) };
}
