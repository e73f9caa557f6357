/**
 * Webhook URLs: control characters and addresses that are not public are refused when registered
 * and, when stored anyway, at delivery.
 */
import { WebhookReceiver, waitFor } from '@rental/testkit';
import { newPartner, query } from '../case-workflow/support/kit';
import { EventPublisher, registerEndpoint, requestsFor } from './support';
import { expectViolationAt } from '../support/partner-requests';
import { sharedStack } from '../support/shared-stack';

describe('webhook URLs', () => {
  it.each([
    ['https://[::7f00:1]/', 'webhook.url_not_public'],
    ['https://[::a9fe:a9fe]/', 'webhook.url_not_public'],
    ['https://[::a00:1]/', 'webhook.url_not_public'],
    ['https://93.184.216.34/a\nb', 'validation.format'],
    ['https://93.184.216.34/a\tb', 'validation.format'],
    ['https://93.184.216.34/\r', 'validation.format'],
  ])('when %j is registered, then 422 and nothing is stored', async (url, code) => {
    const partner = await newPartner();
    expectViolationAt(await partner.api.post('/api/webhook_endpoints', { url }), 422, 'url', code);
    expect((await partner.api.get('/api/webhook_endpoints')).json).toEqual([]);
  });

  it('when a stored URL holds a control character or an IPv4-compatible address, then delivery refuses it and nothing is sent', async () => {
    const partner = await newPartner();
    const hook = await WebhookReceiver.start();
    const publisher = await EventPublisher.connect(sharedStack());
    try {
      const port = new URL(hook.url).port;
      const newline = await registerEndpoint(partner.api, `${hook.url}/newline`);
      const compatible = await registerEndpoint(partner.api, `${hook.url}/compatible`);
      await query('UPDATE notifications.webhook_endpoints SET url = $2 WHERE id = $1', [newline.id, `${hook.url}/newline\nX-Injected: 1`]);
      await query('UPDATE notifications.webhook_endpoints SET url = $2 WHERE id = $1', [compatible.id, `http://[::7f00:1]:${port}/compatible`]);
      const event = await publisher.publish(publisher.event(partner.partner.id));
      const attemptOf = (endpointId: string) =>
        waitFor(
          async () =>
            (await partner.api.get(`/api/webhook_endpoints/${endpointId}/deliveries`)).json.find(
              (delivery: { eventId: string }) => delivery.eventId === event.id,
            )?.attempts[0],
          { what: `a first attempt to ${endpointId}` },
        );
      expect(await attemptOf(newline.id)).toEqual(
        expect.objectContaining({ succeeded: false, statusCode: null, error: 'The URL must not contain control characters (tab, newline, NUL and the like).' }),
      );
      expect(await attemptOf(compatible.id)).toEqual(
        expect.objectContaining({
          succeeded: false,
          statusCode: null,
          error: 'The URL must be publicly reachable: ::7f00:1 is an IPv4-compatible IPv6 address (::/96).',
        }),
      );
      expect(requestsFor(hook, event.id)).toEqual([]);
    } finally {
      await publisher.close();
      await hook.close();
    }
  });
});
