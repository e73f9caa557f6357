import { createHmac } from 'node:crypto';
import { standardWebhookHeaders } from '@rental/standard-webhooks';

export const USER_AGENT = 'PartnerRentalAPI-Webhooks/1.0 (notifications)';

/** X-Webhook-Signature: base64 HMAC-SHA256 of the exact body bytes, keyed with the secret as shown to the partner. */
export function webhookSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
}

/**
 * Every header of one delivery attempt; the timestamp is the attempt's, so a receiver can refuse
 * replays. While a rotated secret's overlap lasts (`previousSecret`), `webhook-signature` carries
 * one entry per secret (new first) and `X-Webhook-Signature`, which holds a single value, stays
 * with the previous secret the receiver verifies with until then.
 */
export function deliveryHeaders(secret: string, eventId: string, body: string, now: Date, previousSecret?: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Webhook-Signature': webhookSignature(previousSecret ?? secret, body),
    ...standardWebhookHeaders(previousSecret ? [secret, previousSecret] : [secret], eventId, body, now),
  };
}
