import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { TIMESTAMP_TOLERANCE_SECONDS, standardWebhookHeaders, standardWebhookSignature, verifyStandardWebhook } from './index';

const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const body = '{"id":"evt_1","event":"financing_case.status_changed"}';
const unicodeBody = '{"id":"evt_2","data":{"note":"Grüße – ½ € 🚲"}}';
const now = new Date();
const seconds = Math.floor(now.getTime() / 1000);

describe('Standard Webhooks', () => {
  it('when signed, then the key is the decoded secret and the content id.timestamp.body', () => {
    const expected = createHmac('sha256', Buffer.alloc(32, 7)).update(`evt_1.1700000000.${body}`).digest('base64');
    expect(standardWebhookSignature(secret, 'evt_1', 1_700_000_000, body)).toBe(`v1,${expected}`);
  });

  it('when signed, then the standardwebhooks package (the reference implementation) computes the same signature and verifies it', () => {
    for (const [id, signed] of [
      ['evt_1', body],
      ['msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', unicodeBody],
    ] as const) {
      const signature = standardWebhookSignature(secret, id, seconds, signed);
      expect(signature).toBe(new Webhook(secret).sign(id, new Date(seconds * 1000), signed));
      expect(new Webhook(secret).verify(signed, { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': signature })).toEqual(
        JSON.parse(signed),
      );
    }
  });

  it('when headers carry several secrets, then the package verifies them with each and refuses another', () => {
    const headers = standardWebhookHeaders([secret, other], 'evt_1', body, now);
    expect(headers).toEqual({
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(seconds),
      'webhook-signature': `${standardWebhookSignature(secret, 'evt_1', seconds, body)} ${standardWebhookSignature(other, 'evt_1', seconds, body)}`,
    });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(other).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(body, headers)).toThrow('No matching signature found');
  });

  it('when the package signs, then verifying accepts it exactly where the package does', () => {
    const signed = new Webhook(secret).sign('evt_1', now, unicodeBody);
    const cases: Record<string, string | undefined>[] = [
      { 'webhook-id': 'evt_1', 'webhook-timestamp': String(seconds), 'webhook-signature': signed },
      { 'Webhook-Id': 'evt_1', 'Webhook-Timestamp': String(seconds), 'Webhook-Signature': `v2,abc ${signed}` },
      { 'webhook-id': 'evt_1', 'webhook-timestamp': String(seconds), 'webhook-signature': signed.replace('v1,', 'v2,') },
      { 'webhook-id': 'evt_2', 'webhook-timestamp': String(seconds), 'webhook-signature': signed },
      { 'webhook-id': 'evt_1', 'webhook-timestamp': String(seconds), 'webhook-signature': `${signed.slice(0, -2)}A=` },
      { 'webhook-id': 'evt_1', 'webhook-timestamp': String(seconds), 'webhook-signature': 'v1' },
      { 'webhook-id': 'evt_1', 'webhook-timestamp': String(seconds) },
      { 'webhook-id': 'evt_1', 'webhook-timestamp': 'soon', 'webhook-signature': signed },
    ];
    // Ten seconds off either edge of the tolerance, so a clock tick between the two checks changes nothing.
    for (const at of [
      -TIMESTAMP_TOLERANCE_SECONDS - 10,
      -TIMESTAMP_TOLERANCE_SECONDS + 10,
      TIMESTAMP_TOLERANCE_SECONDS - 10,
      TIMESTAMP_TOLERANCE_SECONDS + 10,
    ].map((offset) => seconds + offset)) {
      const stamped = new Webhook(secret).sign('evt_1', new Date(at * 1000), unicodeBody);
      cases.push({ 'webhook-id': 'evt_1', 'webhook-timestamp': String(at), 'webhook-signature': stamped });
    }
    for (const headers of cases) {
      const byPackage = (() => {
        try {
          new Webhook(secret).verify(unicodeBody, headers as Record<string, string>, { jsonParse: false });
          return true;
        } catch {
          return false;
        }
      })();
      expect({ headers, verified: verifyStandardWebhook(secret, unicodeBody, headers, now) }).toEqual({ headers, verified: byPackage });
    }
    expect(cases.map((headers) => verifyStandardWebhook(secret, unicodeBody, headers, now))).toContain(true);
  });

  it('when the secret is not the one signed with, then verifying refuses', () => {
    const headers = standardWebhookHeaders([secret], 'evt_1', body, now);
    expect(verifyStandardWebhook(secret, body, headers, now)).toBe(true);
    expect(verifyStandardWebhook(other, body, headers, now)).toBe(false);
    expect(verifyStandardWebhook(secret, `${body} `, headers, now)).toBe(false);
  });
});
