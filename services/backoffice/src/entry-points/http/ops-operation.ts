import { OperationSpec, ResponseSpec, defineOperation, problemResponses } from '@rental/http';

const TAG = 'Approval team';
const authFailures = problemResponses(401, 403);

/**
 * An approval-team operation: the token and role failures of every operation (401, 403), the
 * problems its inputs bring (404 for a path id, 400 for a query, 422 for a body) and the ones it
 * names itself.
 */
export function opsOperation<const S extends Omit<OperationSpec, 'tags' | 'responses'> & { returns: Record<number, ResponseSpec>; problems?: number[] }>(spec: S) {
  const { returns, problems = [], ...operation } = spec;
  const inputs = [...(operation.params ? [404] : []), ...(operation.query ? [400] : []), ...(operation.body ? [422] : [])];
  return defineOperation({ ...operation, tags: [TAG], responses: { ...returns, ...authFailures, ...problemResponses(...inputs, ...problems) } });
}
