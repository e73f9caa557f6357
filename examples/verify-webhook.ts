/**
 * Verifying a webhook delivery of the Partner Rental API; docs/webhooks.md shows this code and
 * tests/notifications/verification-example.test.ts runs it against real deliveries.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { components } from '@rental/partner-api-client';

export type StatusChangedEvent = components['schemas']['FinancingCaseStatusChangedEvent'];
/** Request headers as Node's http module gives them (names in lower case). */
export type IncomingHeaders = Record<string, string | string[] | undefined>;

const single = (value: string | string[] | undefined): string => (Array.isArray(value) ? value.join(', ') : (value ?? ''));

/**
 * Standard Webhooks: accepts the delivery when one of the `v1,` entries of `webhook-signature`
 * is the HMAC of `webhook-id.webhook-timestamp.body` with the secret, and `webhook-timestamp` is
 * within 5 minutes of now. During a secret rotation the header carries one entry per secret, so
 * either secret verifies. Throws `WebhookVerificationError` otherwise: answer 401.
 * `rawBody` is the exact bytes received, before any JSON parsing.
 */
export function verifyStandardWebhook(secret: string, rawBody: Buffer, headers: IncomingHeaders): StatusChangedEvent {
  return new Webhook(secret).verify(rawBody, {
    'webhook-id': single(headers['webhook-id']),
    'webhook-timestamp': single(headers['webhook-timestamp']),
    'webhook-signature': single(headers['webhook-signature']),
  }) as StatusChangedEvent;
}

/**
 * `X-Webhook-Signature`: the base64 HMAC-SHA256 of the raw body keyed with the secret as shown.
 * It carries one signature; during a secret rotation it is made with the old secret until the
 * overlap ends, so pass both secrets while it lasts.
 */
export function verifyWebhookSignature(secrets: string[], rawBody: Buffer, headers: IncomingHeaders): StatusChangedEvent {
  const given = Buffer.from(single(headers['x-webhook-signature']), 'base64');
  const matches = secrets.some((secret) => {
    const expected = createHmac('sha256', secret).update(rawBody).digest();
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new Error('X-Webhook-Signature does not match the endpoint secret');
  return JSON.parse(rawBody.toString('utf8')) as StatusChangedEvent;
}
