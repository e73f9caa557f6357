import { forbidden } from '@rental/problem';

/** Each role adds to the one before it: a reviewer may read, an approver may review. */
export const OPERATOR_ROLES = ['viewer', 'reviewer', 'approver'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** The operator a verified bearer token names. */
export interface Operator {
  id: string;
  name: string | null;
  roles: OperatorRole[];
}

function hasRole(operator: Operator, role: OperatorRole): boolean {
  const needed = OPERATOR_ROLES.indexOf(role);
  return operator.roles.some((held) => OPERATOR_ROLES.indexOf(held) >= needed);
}

export function requireRole(operator: Operator, role: OperatorRole): void {
  if (!hasRole(operator, role)) throw forbidden('ops.role_required', `This operation needs the ${role} role.`);
}

/** The operator as the case history names it. */
export const actorOf = (operator: Operator) => ({ type: 'operator' as const, id: operator.id, name: operator.name ?? '' });
