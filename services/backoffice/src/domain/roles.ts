import { forbidden } from '@rental/problem';
import { OPERATOR_ROLES } from './model';
import type { OperatorRole, Operator } from './model';

function hasRole(operator: Operator, role: OperatorRole): boolean {
  const needed = OPERATOR_ROLES.indexOf(role);
  return operator.roles.some((held) => OPERATOR_ROLES.indexOf(held) >= needed);
}

export function requireRole(operator: Operator, role: OperatorRole): void {
  if (!hasRole(operator, role)) throw forbidden('ops.role_required', `This operation needs the ${role} role.`);
}

/** The operator as the case history names it. */
export const actorOf = (operator: Operator) => ({ type: 'operator' as const, id: operator.id, name: operator.name ?? '' });
