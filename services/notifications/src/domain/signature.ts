import { createHmac } from 'node:crypto';

export const USER_AGENT = 'PartnerRentalAPI-Webhooks/1.0 (notifications)';

const STANDARD_SECRET_PREFIX = 'whsec_';

/** X-Webhook-Signature: base64 HMAC-SHA256 of the exact body bytes, keyed with the secret as shown to the partner. */
export function webhookSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
}

/**
 * Standard Webhooks `webhook-signature` (https://www.standardwebhooks.com): `v1,` and the base64
 * HMAC-SHA256 of `id.timestamp.body`, keyed with the base64-decoded part of the secret after
 * `whsec_`. node:crypto rather than the `standardwebhooks` package, whose pure-JavaScript SHA-256
 * cost several times as much per delivery (docs/decisions.md); its tests verify with that package.
 */
export function standardWebhookSignature(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(STANDARD_SECRET_PREFIX) ? secret.slice(STANDARD_SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`, 'utf8').digest('base64')}`;
}

/**
 * Every header of one delivery attempt; the timestamp is the attempt's, so a receiver can refuse
 * replays. While a rotated secret's overlap lasts (`previousSecret`), `webhook-signature` carries
 * one entry per secret (new first) and `X-Webhook-Signature`, which holds a single value, stays
 * with the previous secret the receiver verifies with until then.
 */
export function deliveryHeaders(secret: string, eventId: string, body: string, now: Date, previousSecret?: string): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const secrets = previousSecret ? [secret, previousSecret] : [secret];
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Webhook-Signature': webhookSignature(previousSecret ?? secret, body),
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((key) => standardWebhookSignature(key, eventId, timestamp, body)).join(' '),
  };
}
