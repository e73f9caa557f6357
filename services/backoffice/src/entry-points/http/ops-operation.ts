import { z } from 'zod';
import { OperationSpec, ResponseSpec, defineOperation, problemResponses } from '@rental/http';
import type { OperatorRole } from '../../domain/model';

const TAG = 'Approval team';

/** The 401 and 403 of every operation: the operator's token (not a partner's API key) and role. */
const authFailures: Record<number, ResponseSpec> = {
  401: {
    ...problemResponses(401)[401],
    description: 'Missing or invalid bearer token',
    headers: {
      'WWW-Authenticate': { description: 'Bearer realm="rental-ops", with error="invalid_token" when a token was given', schema: z.string(), required: true },
    },
  },
  403: { ...problemResponses(403)[403], description: "The operator's roles lack the one this operation needs" },
};

/** An approval-team operation with the least role that may call it (checked on its route, before the body is read). */
export type OpsOperationSpec = OperationSpec & { role: OperatorRole };

/**
 * What the role field says, at the head of the description: `Role <role>.`, or with a note on
 * what needs more (`Role <role>; <note>`), then the operation's own description.
 */
function describeRole(role: OperatorRole, roleNote: string | undefined, description: string | undefined): string {
  return [roleNote ? `Role ${role}; ${roleNote}` : `Role ${role}.`, description].filter(Boolean).join(' ');
}

/**
 * An approval-team operation: its role (which heads its description), and the problems of every operation: the token and the
 * role (401, 403) and a backend that is down (503: every operation asks another process); the
 * problems its inputs bring: 404 for a path id, 400 for a query and for a POST whose body is not
 * well-formed JSON (the body is parsed on every POST, described or not), 422 for a body that
 * breaks its schema; and the ones it names itself.
 */
export function opsOperation<
  const S extends Omit<OpsOperationSpec, 'tags' | 'responses'> & { returns: Record<number, ResponseSpec>; problems?: number[]; roleNote?: string },
>(spec: S) {
  const { returns, problems = [], roleNote, description, ...operation } = spec;
  const readsBody = operation.body !== undefined || ['post', 'put', 'patch'].includes(operation.method);
  const inputs = [503, ...(operation.params ? [404] : []), ...(operation.query || readsBody ? [400] : []), ...(operation.body ? [422] : [])];
  return defineOperation({
    ...operation,
    description: describeRole(operation.role, roleNote, description),
    tags: [TAG],
    responses: { ...returns, ...authFailures, ...problemResponses(...new Set([...inputs, ...problems])) },
  });
}

/** What a reasoned move states of its own: its id, path and words. */
type MoveSpec = Pick<OpsOperationSpec, 'operationId' | 'path' | 'summary'> & { description: string };
type Resource = { params: z.ZodObject; reason: z.ZodType; answer: Record<number, ResponseSpec> };
/** A reasoned move as the routes read it: the resource's path parameters and the reason as its body. */
type ReasonedMove<R extends Resource, S> = OpsOperationSpec & S & { method: 'post'; params: R['params']; body: { schema: R['reason'] } };

/**
 * The approver's moves on one kind of resource that need a reason (kept in its audit or history):
 * POSTs on the resource's path with `reason` as the body, each answered with `answer`.
 */
export function reasonedMoves<const R extends Resource>(resource: R) {
  return <const S extends MoveSpec>(spec: S) =>
    opsOperation({
      ...spec,
      role: 'approver',
      method: 'post',
      params: resource.params,
      body: { schema: resource.reason },
      returns: resource.answer,
    }) as ReasonedMove<R, S>;
}
