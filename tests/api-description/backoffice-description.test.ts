import { fixturePartnerKey } from '@rental/testkit';
import { Ops, expectProblem, sharedStack } from '../backoffice/support/kit';
import { apiAs } from '../support/shared-stack';

// The back office's description states, for every operation, what every operation can answer:
// the bearer token's 401 with its challenge, the role's 403, the 503 of a backend that is down,
// the gateway's 429; the 400 of a body that is not JSON and the gateway's 413 wherever a body is
// read; 404 for a path id, 400 for a query, 422 for a body schema. Rule-based, so an operation
// added later is checked too.

interface Parameter {
  name: string;
  in: string;
  schema: { type?: string; pattern?: string };
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { description: string; headers?: Record<string, { required?: boolean }>; content?: Record<string, unknown> }>;
}
type Description = { paths: Record<string, Record<string, Operation>> };

const UNKNOWN_ULID = '01JZZZZZZZZZZZZZZZZZZZZZZZ';
const UNKNOWN_INTEGER = '2147483000';

async function described(path: string): Promise<{ path: string; method: string; operation: Operation }[]> {
  const response = await fetch(`${sharedStack().gatewayUrl}${path}`);
  expect(response.status).toBe(200);
  const description = (await response.json()) as Description;
  return Object.entries(description.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path: template, method, operation })),
  );
}

const readsBody = (method: string, operation: Operation) => operation.requestBody !== undefined || ['post', 'put', 'patch'].includes(method);
const has = (operation: Operation, place: string) => (operation.parameters ?? []).some((parameter) => parameter.in === place);

/** The statuses the rule asks of an operation, from its method and inputs alone (it may list more of its own). */
function expectedProblems(method: string, operation: Operation): string[] {
  return [
    '401',
    '403',
    '429',
    '503',
    ...(has(operation, 'path') ? ['404'] : []),
    ...(has(operation, 'query') || readsBody(method, operation) ? ['400'] : []),
    ...(readsBody(method, operation) ? ['413'] : []),
    ...(operation.requestBody ? ['422'] : []),
  ];
}

/** A concrete path of a template: ids of the right form that name nothing. */
const concrete = (template: string, operation: Operation) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const parameter = operation.parameters?.find((candidate) => candidate.name === name);
    return parameter?.schema.type === 'integer' ? UNKNOWN_INTEGER : UNKNOWN_ULID;
  });

describe('the back office description, over every operation', () => {
  it('when it is generated, then every operation lists 401 (bearer token, with WWW-Authenticate), 403, 429 and 503, and the 400, 404, 413 and 422 its inputs bring', async () => {
    const operations = await described('/ops/v1/docs.json');

    expect(operations.length).toBeGreaterThanOrEqual(14);
    for (const { path, method, operation } of operations) {
      const label = `${method} ${path}`;
      expect([label, expectedProblems(method, operation).filter((status) => !operation.responses[status])]).toEqual([label, []]);
      expect([label, operation.responses['401']?.description, operation.responses['401']?.headers?.['WWW-Authenticate']?.required]).toEqual([
        label,
        'Missing or invalid bearer token',
        true,
      ]);
      expect([label, operation.responses['429']?.headers?.['Retry-After']?.required]).toEqual([label, true]);
    }
  });

  it('when every operation that reads a body gets one that is not JSON, then 400 problem+json, as listed', async () => {
    const approver = await Ops.as('approver');
    const writes = (await described('/ops/v1/docs.json')).filter(({ method, operation }) => readsBody(method, operation));

    expect(writes.length).toBeGreaterThanOrEqual(11);
    for (const { path, operation } of writes) {
      const response = await approver.postRaw(concrete(path, operation), '{"reason": ');
      expect([path, response.status]).toEqual([path, 400]);
      expectProblem(response, 400);
    }
  });

  it('when a path id is an integer in the bodies, then it is an integer in the path too, in both descriptions', async () => {
    const pathParameters = [...(await described('/ops/v1/docs.json')), ...(await described('/api/docs.json'))].flatMap(({ path, operation }) =>
      (operation.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => ({ path, ...parameter })),
    );
    const digitStrings = pathParameters.filter((parameter) => parameter.schema.type === 'string' && /\[0-9\]|\\d/.test(parameter.schema.pattern ?? ''));
    const integers = pathParameters.filter((parameter) => parameter.schema.type === 'integer').map((parameter) => `${parameter.path} ${parameter.name}`);

    expect(digitStrings).toEqual([]);
    expect(integers).toEqual(
      expect.arrayContaining([
        '/api/documents/{id} id',
        '/api/documents/{id}/download id',
        '/api/financing-cases/{financingCaseId}/document-requests/information/{informationId}/respond informationId',
        '/api/financing-cases/{financingCaseId}/document-requests/{type}/{itemId}/not-available itemId',
        '/api/financing-cases/{financingCaseId}/document-requests/fill-and-return-templates/{templateId}/download templateId',
        '/ops/v1/documents/{id}/download id',
        '/ops/v1/documents/{id}/review id',
        '/ops/v1/callback-requests/{id}/close id',
      ]),
    );
  });

  it('when an integer path id is not an integer, then 404 problem+json naming the parameter, for the operator and the partner', async () => {
    const viewer = await Ops.as('viewer');
    const partner = apiAs(fixturePartnerKey('acme'));

    for (const response of [
      await viewer.get('/ops/v1/documents/abc/download'),
      await partner.get('/api/documents/1.5/download'),
      await partner.get('/api/financing-cases/01JZZZZZZZZZZZZZZZZZZZZZZZ/document-requests/fill-and-return-templates/x/download'),
    ]) {
      expectProblem(response, 404, 'resource.not_found');
    }
    expect((await viewer.get('/ops/v1/documents/abc/download')).json.detail).toBe('No resource exists at this path: id cannot name one.');
    expect((await partner.get('/api/financing-cases/01JZZZZZZZZZZZZZZZZZZZZZZZ/document-requests/fill-and-return-templates/x/download')).json.detail).toBe(
      'No resource exists at this path: templateId cannot name one.',
    );
  });
});
