import fc from 'fast-check';
import { fixturePartnerKey } from '@rental/testkit';
import { apiAs } from '../support/shared-stack';

const acme = apiAs(fixturePartnerKey('acme'));

interface Described {
  path: string;
  method: string;
}

async function describedOperations(): Promise<Described[]> {
  const doc = (await apiAs().get('/api/docs.json')).json as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths)
    .filter(([path]) => !path.startsWith('/api/docs'))
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ path, method: method.toUpperCase() })));
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    "' OR 1=1 --",
    '"; DROP TABLE carts; --',
    '../../etc/passwd',
    '%00',
    '\u0000',
    '<script>alert(1)</script>',
    '${jndi:ldap://x}',
    '𝕏'.repeat(20),
    'a'.repeat(5000),
  ),
);
const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    hostileString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 5 }),
  ),
})).value;
const pathId = fc.oneof(
  fc.constantFrom('01JABCDEFGHJKMNPQRSTVWXYZ0', '1', '0', '-1', '99999999999999999999', 'null', '%27%20OR%201%3D1', '..%2F..', 'document', 'information'),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,30}$/),
);
const queryValue = fc.oneof(fc.constantFrom('1', '0', '-5', 'abc', '1e9', '', '%27'), fc.stringMatching(/^[A-Za-z0-9]{0,10}$/));

/** Header values must be printable ASCII, or Node's client refuses to send them at all. */
function printableAscii(value: string): string {
  return Array.from(value, (char) => (char >= ' ' && char <= '~' ? char : 'x')).join('');
}

function expectWellFormed(method: string, url: string, response: { status: number; contentType: string; text: string; json: any }) {
  const where = `${method} ${url}`;
  expect([where, response.status >= 500 && response.status !== 503]).toEqual([where, false]);
  expect(response.text).not.toMatch(/<html|at \S+ \(.*:\d+:\d+\)|node_modules/i);
  if (response.status >= 400) {
    expect([where, response.contentType]).toEqual([where, 'application/problem+json; charset=utf-8']);
    expect(response.json).toEqual(
      expect.objectContaining({ type: expect.any(String), title: expect.any(String), status: response.status, detail: expect.any(String) }),
    );
  }
}

describe('random input on every endpoint', () => {
  it('when bodies, path ids, query values and headers are random, then no 500, no stack trace, no HTML, errors always problem+json', async () => {
    const operations = await describedOperations();
    expect(operations.length).toBeGreaterThan(10);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operations),
        fc.array(pathId, { minLength: 4, maxLength: 4 }),
        jsonValue,
        queryValue,
        fc.record({
          idempotencyKey: fc.option(hostileString),
          requestId: fc.option(hostileString),
          contentType: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'),
        }),
        async (operation, ids, body, page, headers) => {
          let index = 0;
          const url = `${operation.path.replace(/\{[^}]+\}/g, () => ids[index++] as string)}?page=${page}`;
          const extra: Record<string, string> = { 'Content-Type': headers.contentType };
          if (headers.idempotencyKey !== null) extra['Idempotency-Key'] = printableAscii(headers.idempotencyKey);
          if (headers.requestId !== null) extra['X-Request-Id'] = printableAscii(headers.requestId);
          const response = await acme.request(
            operation.method,
            url,
            operation.method === 'GET' || operation.method === 'DELETE' ? { headers: extra } : { rawBody: JSON.stringify(body) ?? 'null', headers: extra },
          );
          expectWellFormed(operation.method, url, response);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('when the body is not JSON at all, then 400 problem+json on every write operation', async () => {
    for (const operation of (await describedOperations()).filter((op) => op.method !== 'GET' && op.method !== 'DELETE')) {
      const url = operation.path.replace(/\{[^}]+\}/g, '01JABCDEFGHJKMNPQRSTVWXYZ0');
      const response = await acme.request(operation.method, url, { rawBody: '{"items": [', headers: { 'Content-Type': 'application/json' } });
      expectWellFormed(operation.method, url, response);
      expect([operation.method, url, response.status]).toEqual([operation.method, url, 400]);
    }
  });
});
