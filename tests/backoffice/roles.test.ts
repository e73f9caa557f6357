import { ApiClient, ApiResponse } from '@rental/testkit';
import { Ops, Role, expectProblem, partnerCase, sharedStack, simulate } from './support/kit';

const ROLES: Role[] = ['viewer', 'reviewer', 'approver'];
const UNKNOWN_CASE = '01AAAAAAAAAAAAAAAAAAAAAAAA';
const UNKNOWN_NUMBER = '2147483647';
const UNKNOWN_KEY = 'key_01AAAAAAAAAAAAAAAAAAAAAAAA';

interface DescribedOperation {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  role: Role;
}

/** Every operation of the back office's description, with the role its description names. */
async function describedOperations(): Promise<DescribedOperation[]> {
  const response = await fetch(`${sharedStack().gatewayUrl}/ops/v1/docs.json`);
  const document = (await response.json()) as {
    paths: Record<string, Record<string, { description?: string; parameters?: { in: string; name: string; schema?: { type?: string } }[] }>>;
  };
  return Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const role = /^Role (viewer|reviewer|approver)\b/.exec(operation.description ?? '')?.[1] as Role | undefined;
      if (!role) throw new Error(`${method} ${template} names no role in its description`);
      const idType = operation.parameters?.find((parameter) => parameter.in === 'path' && parameter.name === 'id')?.schema?.type;
      return {
        method: method.toUpperCase() as DescribedOperation['method'],
        path: template.replace('{id}', idType === 'integer' ? UNKNOWN_NUMBER : UNKNOWN_CASE).replace('{keyId}', UNKNOWN_KEY),
        role,
      };
    }),
  );
}

/** The path as documented and the spellings express used to route to it as well. */
function spellings(path: string): [string, string][] {
  const segments = path.split('/');
  const lastWord = segments.findLastIndex((segment) => /^[a-z-]+$/.test(segment));
  const upperLast = segments.map((segment, index) => (index === lastWord ? segment.toUpperCase() : segment)).join('/');
  const capitalFirst = segments.map((segment, index) => (index === 3 ? segment.charAt(0).toUpperCase() + segment.slice(1) : segment)).join('/');
  return [
    ['trailing slash', `${path}/`],
    ['upper-case last word', upperLast],
    ['capitalised resource', capitalFirst],
  ];
}

const call = (ops: Ops, method: DescribedOperation['method'], path: string, body: unknown = {}) =>
  method === 'GET' ? ops.get(path) : method === 'PUT' ? ops.put(path, body) : ops.post(path, body);

describe('back office roles on every operation and spelling', () => {
  const as: Partial<Record<Role, Ops>> = {};
  let operations: DescribedOperation[] = [];

  beforeAll(async () => {
    for (const role of ROLES) as[role] = await Ops.as(role);
    operations = await describedOperations();
  });

  it('when every operation of /ops/v1/docs.json is called by every role as documented, then a role below the named one is 403 and the others get past the check; any other spelling is 404 for everyone', async () => {
    expect(operations).toHaveLength(23);
    const rank = (role: Role) => ROLES.indexOf(role);
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const operation of operations) {
      for (const role of ROLES) {
        const ops = as[role] as Ops;
        const documented = await call(ops, operation.method, operation.path);
        const allowed = rank(role) >= rank(operation.role);
        if (!allowed) expectProblem(documented, 403, 'ops.role_required');
        outcomes.push(`${role} ${operation.method} ${operation.path}: ${allowed ? documented.status !== 403 && documented.status < 500 : documented.status}`);
        expected.push(`${role} ${operation.method} ${operation.path}: ${allowed ? true : 403}`);
        for (const [spelling, path] of spellings(operation.path)) {
          const response = await call(ops, operation.method, path);
          expectProblem(response, 404, 'route.not_found');
          outcomes.push(`${role} ${operation.method} ${path} (${spelling}): ${response.status}`);
          expected.push(`${role} ${operation.method} ${path} (${spelling}): 404`);
        }
      }
    }
    expect(outcomes).toEqual(expected);
  });

  it('when a viewer cancels a case with a trailing slash, then 404 and the case stays as it was; the documented path is 403', async () => {
    const { owner, caseId } = await partnerCase();
    const before = (await owner.api.get(`/api/financing_cases/${caseId}`)).json.status as string;
    const viewer = as.viewer as Ops;

    const slashed = await viewer.post(`/ops/v1/cases/${caseId}/cancel/`, { reason: 'Customer withdrew' });
    const capitalised = await viewer.post(`/ops/v1/cases/${caseId}/Cancel`, { reason: 'Customer withdrew' });
    const documented = await viewer.post(`/ops/v1/cases/${caseId}/cancel`, { reason: 'Customer withdrew' });

    expectProblem(slashed, 404, 'route.not_found');
    expectProblem(capitalised, 404, 'route.not_found');
    expectProblem(documented, 403, 'ops.role_required');
    expect((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status).toBe(before);
    expect(before).not.toBe('canceled');
  });

  it("when a viewer overrides a finance_rejected case by any spelling, then it stays finance_rejected; the approver's documented override accepts it", async () => {
    const { owner, caseId } = await partnerCase();
    await simulate(owner, caseId, 'finance_rejected', { rejectionReason: 'Too young a company' });
    const viewer = as.viewer as Ops;

    const slashed = await viewer.post(`/ops/v1/cases/${caseId}/override/`, { reason: 'Guarantor provided' });
    const documented = await viewer.post(`/ops/v1/cases/${caseId}/override`, { reason: 'Guarantor provided' });
    const approverSlashed = await (as.approver as Ops).post(`/ops/v1/cases/${caseId}/override/`, { reason: 'Guarantor provided' });
    const statusBetween = (await owner.api.get(`/api/financing_cases/${caseId}`)).json.status;
    const approved = await (as.approver as Ops).post(`/ops/v1/cases/${caseId}/override`, { reason: 'Guarantor provided' });

    expectProblem(slashed, 404, 'route.not_found');
    expectProblem(documented, 403, 'ops.role_required');
    expectProblem(approverSlashed, 404, 'route.not_found');
    expect([statusBetween, approved.status, approved.json.status]).toEqual(['finance_rejected', 200, 'finance_accepted']);
  });

  it('when a reviewer writes a note or moves a contract by another spelling, then 404 and nothing is written', async () => {
    const { caseId } = await partnerCase({ submitFinancing: false });
    const reviewer = as.reviewer as Ops;

    const answers: ApiResponse[] = [
      await reviewer.post(`/ops/v1/cases/${caseId}/NOTES`, { text: 'Through a capital path' }),
      await reviewer.post(`/ops/v1/cases/${caseId}/notes/`, { text: 'Through a trailing slash' }),
      await reviewer.post(`/ops/v1/cases/${caseId}/requests/`, { items: [{ type: 'information', question: 'Founding year?' }] }),
      await reviewer.post(`/ops/v1/CONTRACTS/${UNKNOWN_CASE}/transitions`, { to: 'signed' }),
    ];

    const after = await reviewer.get(`/ops/v1/cases/${caseId}`);
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404]);
    expect([after.json.requestedItems, after.json.history.filter((entry: { actor: { type: string } }) => entry.actor.type === 'operator')]).toEqual([[], []]);
  });

  it('when a partner calls its API with a trailing slash or another case, then 404 in every service as in the back office', async () => {
    const { owner } = await partnerCase();
    const api: ApiClient = owner.api;

    const documented = await api.get('/api/product-sectors');
    const answers = [await api.get('/api/product-sectors/'), await api.get('/api/webhook_endpoints/'), await api.get('/api/carts/')];

    expect(documented.status).toBe(200);
    for (const answer of answers) expectProblem(answer, 404, 'route.not_found');
  });
});
