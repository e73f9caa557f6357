import { OperationSpec, ResponseSpec, defineOperation, problemResponses } from '@rental/http';
import type { OperatorRole } from '../../domain/roles';

const TAG = 'Approval team';
const authFailures = problemResponses(401, 403);

/** An approval-team operation with the least role that may call it (checked on its route, before the body is read). */
export type OpsOperationSpec = OperationSpec & { role: OperatorRole };

/**
 * An approval-team operation: its role, the token and role failures of every operation (401,
 * 403), the problems its inputs bring (404 for a path id, 400 for a query, 422 for a body) and
 * the ones it names itself.
 */
export function opsOperation<const S extends Omit<OpsOperationSpec, 'tags' | 'responses'> & { returns: Record<number, ResponseSpec>; problems?: number[] }>(spec: S) {
  const { returns, problems = [], ...operation } = spec;
  const inputs = [...(operation.params ? [404] : []), ...(operation.query ? [400] : []), ...(operation.body ? [422] : [])];
  return defineOperation({ ...operation, tags: [TAG], responses: { ...returns, ...authFailures, ...problemResponses(...inputs, ...problems) } });
}
