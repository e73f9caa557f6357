import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { standardWebhookSignature } from '@rental/standard-webhooks';
import { USER_AGENT, deliveryHeaders, webhookSignature } from './signature';

const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const body = '{"id":"evt_1","event":"financing_case.status_changed"}';

describe('delivery signatures', () => {
  it('when a body is signed, then X-Webhook-Signature is the base64 HMAC-SHA256 of its bytes keyed with the secret as shown', () => {
    expect(webhookSignature(secret, body)).toBe(createHmac('sha256', secret).update(body).digest('base64'));
  });

  it('when a rotated secret is in its overlap, then the standardwebhooks package verifies the headers with either secret', () => {
    const previous = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const headers = deliveryHeaders(secret, 'evt_1', body, new Date(), previous);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(body, headers)).toThrow('No matching signature found');
  });

  it('when headers are built for an attempt, then they carry the type, the user agent, both signatures, the id and the attempt time', () => {
    const headers = deliveryHeaders(secret, 'evt_1', body, new Date('2023-11-14T22:13:20.900Z'));
    expect(headers).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      'X-Webhook-Signature': webhookSignature(secret, body),
      'webhook-id': 'evt_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': standardWebhookSignature(secret, 'evt_1', 1_700_000_000, body),
    });
  });

  it('when a rotated secret is still in its overlap, then webhook-signature carries one entry per secret, new first, and X-Webhook-Signature stays with the previous secret', () => {
    const previous = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const headers = deliveryHeaders(secret, 'evt_1', body, new Date('2023-11-14T22:13:20.900Z'), previous);
    expect(headers['webhook-signature']).toBe(
      `${standardWebhookSignature(secret, 'evt_1', 1_700_000_000, body)} ${standardWebhookSignature(previous, 'evt_1', 1_700_000_000, body)}`,
    );
    expect(headers['X-Webhook-Signature']).toBe(webhookSignature(previous, body));
  });
});
