import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { OperationSpec } from '@rental/http';
import { sendProblem } from '@rental/http';
import { DomainError, toProblem } from '@rental/problem';
import type { JwtVerifier } from '../../data-access/token-verifier';
import { Operator, OperatorRole, hasRole } from '../../domain/roles';

const REALM = 'realm="rental-ops"';

function pattern(spec: OperationSpec): RegExp {
  return new RegExp(`^${spec.path.replace(/\{\w+\}/g, '[^/]+')}$`);
}

/**
 * Every call under /ops/v1 names its operator with a bearer JWT of the operators' IdP: missing
 * or invalid is 401 with WWW-Authenticate: Bearer, a role below the operation's 403 — both
 * before the body is read and before any case is looked up.
 */
export function operatorAuthentication(verifier: JwtVerifier, roles: ReadonlyArray<readonly [OperationSpec, OperatorRole]>): RequestHandler {
  const table = roles.map(([spec, role]) => ({ method: spec.method.toUpperCase(), pattern: pattern(spec), role }));
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+([A-Za-z0-9\-_.~+/]+=*)\s*$/i.exec(header);
    if (!match) {
      sendProblem(res, toProblem(new DomainError('unauthenticated', 'auth.missing_token', 'An operator\'s bearer token (Authorization: Bearer <JWT>) is required.')), { 'WWW-Authenticate': `Bearer ${REALM}` });
      return;
    }
    verifier.verify(match[1] as string).then((operator: Operator) => {
      res.locals.operator = operator;
      const path = `${req.baseUrl}${req.path}`;
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      const needed = table.find((entry) => entry.method === method && entry.pattern.test(path))?.role;
      if (needed && !hasRole(operator, needed)) {
        sendProblem(res, toProblem(new DomainError('forbidden', 'ops.role_required', `This operation needs the ${needed} role.`)));
        return;
      }
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
