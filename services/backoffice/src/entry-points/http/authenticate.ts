import type { Response } from 'express';
import type { OperationSpec } from '@rental/http';
import { forbidden } from '@rental/problem';
import { requireRole } from '../../domain/roles';
import { OPERATOR_ROLES, Operator, OperatorRole } from '../../domain/model';

const isOperatorRole = (role: unknown): role is OperatorRole => (OPERATOR_ROLES as readonly unknown[]).includes(role);

/**
 * The router's authorization: the operator needs the role the matched operation declares
 * (403 before the body is read or any case looked up); an operation without one is refused to
 * everyone, so a route added without a role stays closed.
 */
export function authorizeOperator(spec: OperationSpec, res: Response): void {
  const role = (spec as OperationSpec & { role?: unknown }).role;
  if (!isOperatorRole(role)) throw forbidden('ops.role_required', 'This operation declares no role, so no operator may call it.');
  requireRole(res.locals.operator as Operator, role);
}
