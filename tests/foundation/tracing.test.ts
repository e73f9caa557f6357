import { randomUUID } from 'node:crypto';
import { ApiClient, WebhookReceiver, createTestPartner, logLines, waitFor } from '@rental/testkit';
import { sharedStack } from '../support/shared-stack';

// An operator follows one checkout by the request id the partner got back in X-Request-Id: every
// process the checkout reached has written its lines with that id.

const laptop = { productNumber: 'LAPTOP-1', productName: 'Laptop', quantity: 1, price: 1000, categorySlug: 'laptops' };
const customer = { firstName: 'Erika', lastName: 'Mustermann', email: 'erika@customer.example', street: 'Hauptstr.', houseNumber: '1', zipCode: '10115', city: 'Berlin', country: 'DE', company: 'Mustermann GmbH' };

let hook: WebhookReceiver;

beforeAll(async () => {
  hook = await WebhookReceiver.start();
});

afterAll(() => hook.close());

const linesWith = (processName: string, requestId: string) => logLines(sharedStack().logDirectory, processName).filter((line) => line.requestId === requestId);

describe('one request id across the processes', () => {
  it('when a partner checks a cart out, then its request id finds the lines of the gateway, cart-checkout, pricing, case-workflow, documents and the webhook delivery in notifications', async () => {
    const partner = await createTestPartner(sharedStack(), { like: 'acme' });
    const api = new ApiClient(sharedStack().gatewayUrl, partner.key);
    expect((await api.post('/api/webhook_endpoints', { url: `${hook.url}/trace` })).status).toBe(201);
    const cart = await api.post('/api/carts', { items: [laptop] });
    const requestId = `trace-${randomUUID()}`;

    const checkout = await api.post(`/api/carts/${cart.json.cartId}/checkout`, { duration: 36, financingType: 'leasing', customer }, { headers: { 'X-Request-Id': requestId, 'Idempotency-Key': randomUUID() } });

    expect([checkout.status, checkout.headers.get('x-request-id')]).toEqual([201, requestId]);
    const processes = ['gateway', 'cart-checkout', 'pricing', 'case-workflow', 'documents', 'notifications'];
    // The webhook is delivered after the checkout answered: wait for its line too.
    const found = await waitFor(() => {
      const counts = Object.fromEntries(processes.map((name) => [name, linesWith(name, requestId).length]));
      const delivered = linesWith('notifications', requestId).some((line) => line.msg === 'webhook delivered');
      return delivered && Object.values(counts).every((count) => count > 0) ? counts : undefined;
    }, { timeoutMs: 15_000, what: `log lines with ${requestId} in every process` }).catch(() => Object.fromEntries(processes.map((name) => [name, linesWith(name, requestId).map((line) => line.msg)])));
    expect(found).toEqual(Object.fromEntries(processes.map((name) => [name, expect.any(Number)])));
    expect(linesWith('gateway', requestId)).toEqual([expect.objectContaining({ msg: 'request', route: '/api/carts/{id}/checkout', status: 201, partnerId: partner.id })]);
    expect(linesWith('notifications', requestId).map((line) => line.msg)).toContain('webhook delivered');
  });
});
