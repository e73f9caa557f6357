/** Each role adds to the one before it: a reviewer may read, an approver may review. */
export const OPERATOR_ROLES = ['viewer', 'reviewer', 'approver'] as const;

export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** The operator a verified bearer token names. */
export interface Operator {
  id: string;
  name: string | null;
  roles: OperatorRole[];
}
