import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WebhookReceiver, createTestPartner } from '@rental/testkit';
import { verifyStandardWebhook, verifyWebhookSignature } from '../../examples/verify-webhook';
import { apiAs, sharedStack } from '../support/shared-stack';
import { EventPublisher, expectedBody, registerEndpoint, waitForRequests } from './support';

// The verification code partners copy from docs/webhooks.md, run on what the API really sends.

const repo = path.resolve(__dirname, '..', '..');

let publisher: EventPublisher;
let hook: WebhookReceiver;

beforeAll(async () => {
  [publisher, hook] = await Promise.all([EventPublisher.connect(sharedStack()), WebhookReceiver.start()]);
});

afterAll(async () => {
  await publisher.close();
  await hook.close();
});

async function delivered() {
  const partner = await createTestPartner(sharedStack());
  const endpoint = await registerEndpoint(apiAs(partner.key), `${hook.url}/verify`);
  const event = await publisher.publish(publisher.event(partner.id));
  const [request] = await waitForRequests(hook, event.id, 1);
  return { secret: endpoint.secret, event, request: request! };
}

describe('the webhook verification example', () => {
  it('when a real delivery is verified with the example, then both the Standard Webhooks and the X-Webhook-Signature check give the event', async () => {
    const { secret, event, request } = await delivered();

    expect(verifyStandardWebhook(secret, request.rawBody, request.headers)).toEqual(JSON.parse(expectedBody(event)));
    expect(verifyWebhookSignature([secret], request.rawBody, request.headers)).toEqual(JSON.parse(expectedBody(event)));
  });

  it('when the body, the secret or the timestamp of a real delivery is changed, then the example refuses it', async () => {
    const { secret, event, request } = await delivered();
    const tampered = Buffer.from(request.rawBody.toString('utf8').replace(event.data.toStatus, 'completed'));
    const otherSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const replayed = { ...request.headers, 'webhook-timestamp': String(Number(request.headers['webhook-timestamp']) - 600) };

    expect(() => verifyStandardWebhook(secret, tampered, request.headers)).toThrow('No matching signature found');
    expect(() => verifyStandardWebhook(otherSecret, request.rawBody, request.headers)).toThrow('No matching signature found');
    expect(() => verifyStandardWebhook(secret, request.rawBody, replayed)).toThrow('Message timestamp too old');
    expect(() => verifyWebhookSignature([secret], tampered, request.headers)).toThrow('X-Webhook-Signature does not match the endpoint secret');
    expect(() => verifyWebhookSignature([otherSecret], request.rawBody, request.headers)).toThrow('X-Webhook-Signature does not match the endpoint secret');
  });

  it('when docs/webhooks.md is read, then it shows the example as it is tested and names every signature header', () => {
    const doc = readFileSync(path.join(repo, 'docs', 'webhooks.md'), 'utf8');
    const example = readFileSync(path.join(repo, 'examples', 'verify-webhook.ts'), 'utf8');

    expect(doc).toContain(example.slice(example.indexOf('import ')));
    for (const header of ['X-Webhook-Signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature']) expect(doc).toContain(`| \`${header}\` |`);
  });

  it('when the API description is read, then its status-change webhook documents both signatures with their headers', async () => {
    const response = await apiAs().get('/api/docs.json');
    const hookPost = response.json.webhooks['financing_case.status_changed'].post;

    expect(hookPost.parameters.map((parameter: { name: string; in: string; required: boolean }) => [parameter.name, parameter.in, parameter.required])).toEqual(
      [
        ['X-Webhook-Signature', 'header', true],
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
        ['traceparent', 'header', true],
      ],
    );
    expect(hookPost.description).toContain('`X-Webhook-Signature` is the base64 HMAC-SHA256 of the body');
    expect(hookPost.description).toContain('`new Webhook(secret).verify(rawBody, headers)` of the `standardwebhooks` npm package');
  });
});
