import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks with node:crypto rather than the `standardwebhooks` package, whose
 * pure-JavaScript SHA-256 costs several times as much per signature (docs/decisions.md); the
 * tests hold every result against that package.
 */

const SECRET_PREFIX = 'whsec_';

/** How far a webhook-timestamp may be from now, either way, for the message to be believed (the standard's 5 minutes). */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

/** The HMAC key of a secret: the base64-decoded part after `whsec_`. */
function keyOf(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error("Secret can't be empty.");
  return key;
}

/** One `webhook-signature` entry: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`. */
export function standardWebhookSignature(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${messageId}.${timestampSeconds}.${body}`, 'utf8').digest('base64')}`;
}

/** The three headers of one message sent at `at`; with several secrets (a rotation's overlap) one signature per secret, in their order. */
export function standardWebhookHeaders(secrets: readonly string[], messageId: string, body: string, at: Date): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => standardWebhookSignature(secret, messageId, timestamp, body)).join(' '),
  };
}

const sameText = (a: string, b: string) => {
  const [left, right] = [Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')];
  return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * Whether the headers sign `body` with `secret`: all three present, the timestamp within the
 * tolerance of `now`, and one `v1` entry of webhook-signature matching. Header names in any case.
 */
export function verifyStandardWebhook(secret: string, body: string, headers: Record<string, string | undefined>, now: Date = new Date()): boolean {
  const named = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const [id, stamp, signatures] = [named['webhook-id'], named['webhook-timestamp'], named['webhook-signature']];
  if (!id || !stamp || !signatures) return false;
  const timestamp = Number.parseInt(stamp, 10);
  if (Number.isNaN(timestamp) || Math.abs(Math.floor(now.getTime() / 1000) - timestamp) > TIMESTAMP_TOLERANCE_SECONDS) return false;
  let expected: string;
  try {
    expected = standardWebhookSignature(secret, id, timestamp, body).slice('v1,'.length);
  } catch {
    return false;
  }
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    return version === 'v1' && signature !== undefined && sameText(signature, expected);
  });
}
