import { fixturePartnerKey } from '@rental/testkit';
import { apiAs } from '../support/shared-stack';

const acme = apiAs(fixturePartnerKey('acme'));
const SOME_ULID = '01JABCDEFGHJKMNPQRSTVWXYZ0';

interface Operation {
  operationId: string;
  parameters?: { name: string; in: string }[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

type Description = {
  paths: Record<string, Record<string, Operation>>;
  info: { version: string };
  webhooks: Record<string, unknown>;
  components: { securitySchemes: Record<string, unknown> };
};

async function description(): Promise<Description> {
  const response = await apiAs().get('/api/docs.json');
  expect(response.status).toBe(200);
  return response.json;
}

/** A concrete path for a templated one: ids that have the right shape but exist nowhere. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, (name) => (/Id\}$|\{id\}|\{ulid\}/.test(name) ? SOME_ULID : 'document'));

function operations(doc: Description): { path: string; method: string; operation: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));
}

describe('the API description', () => {
  it('when it is served, then it carries a calendar build tag, the key scheme, the status-change webhook and the test event', async () => {
    const doc = await description();
    expect(doc.info.version).toMatch(/^\d{4}\.\d{2}\.\d{2}/);
    expect(Object.keys(doc.webhooks)).toEqual(['financing_case.status_changed', 'webhook_endpoint.test']);
    expect(JSON.stringify(doc.components.securitySchemes)).toContain('X-Api-Key');
  });

  it('when an operation answers errors, then each is described as problem+json', async () => {
    for (const { path, method, operation } of operations(await description())) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) >= 400)
          expect([`${method} ${path} ${status}`, Object.keys(response.content ?? {})]).toEqual([`${method} ${path} ${status}`, ['application/problem+json']]);
      }
    }
  });
});

describe('conventions over every operation', () => {
  it('when a collection gets a page below 1 or not an integer, then 400 problem+json naming page', async () => {
    const collections = operations(await description()).filter(
      ({ method, operation }) => method === 'get' && operation.parameters?.some((parameter) => parameter.name === 'page' && parameter.in === 'query'),
    );
    expect(collections.length).toBeGreaterThanOrEqual(8);
    for (const { path } of collections) {
      for (const page of ['0', 'abc', '1.5']) {
        const response = await acme.get(`${concrete(path)}?page=${page}`);
        expect([path, page, response.status, response.contentType]).toEqual([path, page, 400, 'application/problem+json; charset=utf-8']);
        expect(response.json.detail).toContain('page');
      }
    }
  });

  it('when any operation is called without a key, then 401 problem+json with a request id', async () => {
    for (const { path, method } of operations(await description())) {
      if (path.startsWith('/api/docs')) continue;
      const response = await apiAs().request(method.toUpperCase(), concrete(path), method === 'get' || method === 'delete' ? {} : { body: {} });
      expect([method, path, response.status, response.contentType]).toEqual([method, path, 401, 'application/problem+json; charset=utf-8']);
      expect(response.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it('when any operation answers, then the answer carries X-Request-Id and errors are problem+json with type, title, status and detail', async () => {
    for (const { path, method } of operations(await description())) {
      if (path.startsWith('/api/docs')) continue;
      const response = await acme.request(method.toUpperCase(), concrete(path), method === 'get' || method === 'delete' ? {} : { body: {} });
      expect(response.headers.get('x-request-id')).toBeTruthy();
      expect(response.status).not.toBe(500);
      if (response.status >= 400) {
        expect([method, path, response.contentType]).toEqual([method, path, 'application/problem+json; charset=utf-8']);
        expect(response.json).toEqual(
          expect.objectContaining({ type: expect.any(String), title: expect.any(String), status: response.status, detail: expect.any(String) }),
        );
        if (response.status === 422) expect(Array.isArray(response.json.violations)).toBe(true);
      }
    }
  });
});
