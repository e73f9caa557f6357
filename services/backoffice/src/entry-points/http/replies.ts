import type { Operator } from '../../domain/model';

/** The operator the authorization found for this request (authenticate.ts). */
export const operatorOf = (res: { locals: Record<string, unknown> }) => res.locals.operator as Operator;
export const ok = (body: unknown) => ({ status: 200, body });
export const created = (body: unknown) => ({ status: 201, body });
