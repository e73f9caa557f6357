/**
 * JSON nested thousands of levels deep is refused (400) by every service, never a stack overflow.
 */
import { ApiClient, ApiResponse } from '@rental/testkit';
import { Owner, newCase, newPartner } from '../case-workflow/support/kit';
import { operatorToken } from '../backoffice/support/kit';
import { PROBLEM, sentLink } from '../support/partner-requests';
import { problemTypeOf } from '../support/problems';
import { sharedStack } from '../support/shared-stack';

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

describe('JSON nested thousands of levels deep', () => {
  const deepArray = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  const deepObject = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;

  function expectTooDeep(response: ApiResponse): void {
    expect([response.status, response.contentType]).toEqual([400, PROBLEM]);
    expect(response.json).toEqual(
      expect.objectContaining({
        type: problemTypeOf('request.nesting_too_deep'),
        status: 400,
        detail: 'The JSON body is nested more than 64 levels deep.',
        violations: [{ propertyPath: '', code: 'request.nesting_too_deep', message: 'At most 64 levels of nested arrays and objects.' }],
      }),
    );
  }

  it.each([
    ['pricing', '/api/calculate/estimate'],
    ['cart-checkout', '/api/carts'],
    ['case-workflow', '/api/sandbox/financing_cases/01J9ZZZZZZZZZZZZZZZZZZZZZZ/simulate'],
    ['documents', '/api/financing-cases/01J9ZZZZZZZZZZZZZZZZZZZZZZ/document-requests/information/1/respond'],
    ['notifications', '/api/webhook_endpoints'],
  ])('when a partner sends one to %s, then 400 request.nesting_too_deep, never a stack overflow', async (_service, route) => {
    for (const body of [deepArray, deepObject]) expectTooDeep(await owner.api.request('POST', route, { rawBody: body }));
  });

  it('when an operator sends one to /ops, then 400 request.nesting_too_deep', async () => {
    const ops = new ApiClient(sharedStack().gatewayUrl);
    const headers = { Authorization: `Bearer ${await operatorToken('reviewer')}`, 'Content-Type': 'application/json' };
    const { caseId } = await newCase(owner);
    for (const body of [deepArray, deepObject])
      expectTooDeep(await ops.request('POST', `/ops/v1/cases/${caseId}/notes`, { key: null, rawBody: body, headers }));
  });

  it('when a customer sends one to /customer/v1, then 400 request.nesting_too_deep', async () => {
    const { token } = await sentLink(owner);
    const customer = new ApiClient(sharedStack().gatewayUrl);
    for (const route of [`/customer/v1/quotes/${token}/feedback`, `/customer/v1/quotes/${token}/information/1/respond`]) {
      for (const body of [deepArray, deepObject]) expectTooDeep(await customer.request('POST', route, { key: null, rawBody: body }));
    }
  });

  it('when the body is 64 levels deep, then it is read as usual', async () => {
    const response = await owner.api.request('POST', '/api/carts', { rawBody: `{"items":${'['.repeat(63)}${']'.repeat(63)}}` });
    expect(response.status).toBe(422);
  });
});
