import { randomUUID } from 'node:crypto';
import { ROUTES } from '@rental/gateway';
import { ApiClient, LogLine, createTestPartner, logLines, waitFor } from '@rental/testkit';
import { sharedStack } from '../support/shared-stack';

// The gateway's access log as an operator greps it: one line per call, found by its request id.

const UNKNOWN_ULID = '01JABCDEFGHJKMNPQRSTVWXYZ0';

async function accessLinesOf(requestId: string): Promise<LogLine[]> {
  return waitFor(
    () => {
      const lines = logLines(sharedStack().logDirectory, 'gateway').filter((line) => line.requestId === requestId);
      return lines.length > 0 ? lines : undefined;
    },
    { timeoutMs: 5000, what: `the gateway's log line of ${requestId}` },
  );
}

describe('the gateway access log', () => {
  it('when partners call routes of services and the gateway answers by itself, then each call is one line with method, route template, status, ms, partner and request id', async () => {
    const partner = await createTestPartner(sharedStack(), { like: 'acme' });
    const calls = [
      {
        key: partner.key,
        path: `/api/carts/${UNKNOWN_ULID}`,
        expected: { method: 'GET', route: '/api/carts/{id}', status: 404, partnerId: partner.id, service: 'cart-checkout' },
      },
      {
        key: partner.key,
        path: '/api/product-sectors',
        expected: { method: 'GET', route: '/api/product-sectors', status: 200, partnerId: partner.id, service: 'pricing' },
      },
      {
        key: undefined,
        path: `/api/webhook_endpoints/${UNKNOWN_ULID}`,
        expected: { method: 'GET', route: '/api/webhook_endpoints/{id}', status: 401, partnerId: null, service: 'gateway' },
      },
      {
        key: partner.key,
        path: '/api/partners/everything',
        expected: { method: 'GET', route: 'unmatched', status: 404, partnerId: partner.id, service: 'gateway' },
      },
    ];

    for (const { key, path, expected } of calls) {
      const requestId = randomUUID();
      const response = await new ApiClient(sharedStack().gatewayUrl, key).request('GET', path, { headers: { 'X-Request-Id': requestId } });
      expect([path, response.status]).toEqual([path, expected.status]);

      const lines = await accessLinesOf(requestId);
      expect(lines).toEqual([expect.objectContaining({ msg: 'request', requestId, ...expected, ms: expect.any(Number) })]);
      expect(lines[0]!.ms as number).toBeGreaterThanOrEqual(0);
      expect(JSON.stringify(lines[0])).not.toContain(UNKNOWN_ULID);
    }
  });

  it("when a path of every service row of the route table is called, then its line names the row's owner, which answered it", async () => {
    const partner = await createTestPartner(sharedStack(), { like: 'acme' });
    for (const route of ROUTES) {
      if (route.owner === 'gateway') continue;
      const path = route.prefix.replace(/\{[^/]+\}/g, 'x1');
      const requestId = randomUUID();
      await new ApiClient(sharedStack().gatewayUrl, route.key === 'api_key' ? partner.key : undefined).request('GET', path, {
        headers: { 'X-Request-Id': requestId },
      });

      const lines = await accessLinesOf(requestId);
      expect([path, lines.map((line) => line.service)]).toEqual([path, [route.owner]]);
    }
  });
});
