import type { Response } from 'express';
import type { OperationSpec } from '@rental/http';
import { DomainError } from '@rental/problem';
import { authorizeOperator } from './authenticate';
import { operations } from './contract';
import type { Operator } from '../../domain/model';

const asOperator = (roles: Operator['roles']) => ({ locals: { operator: { id: 'op-test', name: 'Test', roles } } }) as unknown as Response;
const refusal = (call: () => void) => {
  try {
    call();
    return null;
  } catch (error) {
    return error instanceof DomainError ? `${error.kind} ${error.code}` : String(error);
  }
};

describe('the back office authorization', () => {
  it('when an operation declares no role, then every operator is refused, an approver too', () => {
    const undeclared = {
      operationId: 'ops_new',
      method: 'post',
      path: '/ops/v1/cases/{id}/new',
      summary: 'added without a role',
      tags: [],
      responses: {},
    } as OperationSpec;

    expect(refusal(() => authorizeOperator(undeclared, asOperator(['viewer', 'reviewer', 'approver'])))).toBe('forbidden ops.role_required');
  });

  it('when an operation declares a role the roles do not know, then every operator is refused', () => {
    const misspelt = { ...operations[0], role: 'admin' } as unknown as OperationSpec;

    expect(refusal(() => authorizeOperator(misspelt, asOperator(['viewer', 'reviewer', 'approver'])))).toBe('forbidden ops.role_required');
  });

  it('when each operation is asked by each role, then only the declared role and those above it pass', () => {
    const outcomes = operations.map((operation) => [
      operation.operationId,
      ...(['viewer', 'reviewer', 'approver'] as const).map((highest, index) => {
        const held = (['viewer', 'reviewer', 'approver'] as const).slice(0, index + 1);
        return refusal(() => authorizeOperator(operation, asOperator([...held]))) === null ? highest : '-';
      }),
    ]);
    const approverOnly = new Set([
      'ops_override_case',
      'ops_cancel_case',
      'ops_create_partner',
      'ops_replace_partner_conditions',
      'ops_suspend_partner',
      'ops_reactivate_partner',
      'ops_create_partner_api_key',
      'ops_revoke_partner_api_key',
    ]);
    const viewerToo = new Set(['ops_list_cases', 'ops_get_case', 'ops_download_document', 'ops_list_partners', 'ops_get_partner', 'ops_partner_audit']);

    expect(outcomes).toEqual(
      operations.map((operation) => [
        operation.operationId,
        viewerToo.has(operation.operationId) ? 'viewer' : '-',
        approverOnly.has(operation.operationId) ? '-' : 'reviewer',
        'approver',
      ]),
    );
  });
});
