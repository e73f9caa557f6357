import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { OperationSpec } from '@rental/http';
import { sendProblem } from '@rental/http';
import { DomainError, forbidden, toProblem } from '@rental/problem';
import type { JwtVerifier } from '../../data-access/token-verifier';
import { OPERATOR_ROLES, Operator, OperatorRole, requireRole } from '../../domain/roles';

const REALM = 'realm="rental-ops"';

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

/**
 * Every call under /ops/v1 names its operator with a bearer JWT of the operators' IdP: missing
 * or invalid is 401 with WWW-Authenticate: Bearer, before the body is read.
 */
export function operatorAuthentication(verifier: JwtVerifier): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+([A-Za-z0-9\-_.~+/]+=*)\s*$/i.exec(header);
    if (!match) {
      sendProblem(res, toProblem(new DomainError('unauthenticated', 'auth.missing_token', 'An operator\'s bearer token (Authorization: Bearer <JWT>) is required.')), { 'WWW-Authenticate': `Bearer ${REALM}` });
      return;
    }
    verifier.verify(match[1] as string).then((operator: Operator) => {
      res.locals.operator = operator;
      next();
    }, (error: unknown) => {
      if (error instanceof DomainError && error.kind === 'unauthenticated') {
        sendProblem(res, toProblem(error), { 'WWW-Authenticate': `Bearer ${REALM}, error="invalid_token", error_description="${error.detail.replace(/"/g, '\'')}"` });
        return;
      }
      next(error);
    });
  };
}
