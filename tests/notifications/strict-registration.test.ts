import { ApiClient, Stack, createTestPartner, shutdownStack } from '@rental/testkit';
import { bootOwnStack } from './support';

// Production rules: a stack without WEBHOOK_ALLOW_PRIVATE_URLS, so http and loopback are refused too.
let stack: Stack;
let api: ApiClient;

beforeAll(async () => {
  stack = await bootOwnStack({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
  api = new ApiClient(stack.gatewayUrl, (await createTestPartner(stack)).key);
}, 120_000);

afterAll(() => shutdownStack(stack));

describe('registration without private URLs allowed', () => {
  it.each([
    ['http://93.184.216.34/in', 'webhook.url_not_https', 'The URL must use https.'],
    ['https://127.0.0.1/in', 'webhook.url_not_public', 'The URL must be publicly reachable: 127.0.0.1 is a loopback address.'],
    ['https://127.8.9.10:8443/in', 'webhook.url_not_public', 'The URL must be publicly reachable: 127.8.9.10 is a loopback address.'],
    ['https://[::1]/in', 'webhook.url_not_public', 'The URL must be publicly reachable: ::1 is a loopback address.'],
    ['https://localhost/in', 'webhook.url_not_public', 'The URL must be publicly reachable: localhost resolves to 127.0.0.1, which is a loopback address.'],
    ['https://10.0.0.1/in', 'webhook.url_not_public', 'The URL must be publicly reachable: 10.0.0.1 is a private address.'],
    ['https://169.254.169.254/latest/meta-data', 'webhook.url_not_public', 'The URL must be publicly reachable: 169.254.169.254 is a link-local address.'],
  ])('when the URL is %s, then 422 %s at url', async (url, code, message) => {
    const response = await api.post('/api/webhook_endpoints', { url });
    expect(response.status).toBe(422);
    expect(response.contentType).toBe('application/problem+json; charset=utf-8');
    expect(response.json.violations).toEqual([{ propertyPath: 'url', code, message }]);
  });

  it('when the URL is https on a public address, then 201', async () => {
    const response = await api.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/in' });
    expect([response.status, response.json.url]).toEqual([201, 'https://93.184.216.34/in']);
  });
});
