import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type OperationSpec, sendProblem } from '@rental/http';
import { DomainError, toProblem } from '@rental/problem';

export interface BearerAuthenticationOptions<Principal, Role> {
  /** `realm="…"` of WWW-Authenticate. */
  realm: string;
  /** The 401 detail without a token ("An operator's bearer token … is required."). */
  missingTokenDetail: string;
  /** The principal a raw bearer token names; a DomainError `unauthenticated` answers 401. */
  authenticate(token: string): Promise<Principal>;
  /** The role each operation needs; an operation not listed needs none. */
  roles: ReadonlyArray<readonly [OperationSpec, Role]>;
  /** The role an operation needs may depend on the deployment (a sandbox's keys need less). */
  hasRole(principal: Principal, role: Role): boolean;
  /** The 403 of a role too low. */
  forbidden(role: Role): DomainError;
  /** Where the principal is kept (`res.locals[key]`). */
  localsKey: string;
}

function pattern(spec: OperationSpec): RegExp {
  return new RegExp(`^${spec.path.replace(/\{\w+\}/g, '[^/]+')}$`);
}

/**
 * Every call under the API prefix names its principal with a bearer JWT: missing or invalid is
 * 401 with WWW-Authenticate: Bearer, a role below the operation's 403 — both before the body is
 * read and before anything is looked up.
 */
export function bearerAuthentication<Principal, Role>(options: BearerAuthenticationOptions<Principal, Role>): RequestHandler {
  const table = options.roles.map(([spec, role]) => ({ method: spec.method.toUpperCase(), pattern: pattern(spec), role }));
  const realm = `realm="${options.realm}"`;
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+([A-Za-z0-9\-_.~+/]+=*)\s*$/i.exec(header);
    if (!match) {
      sendProblem(res, toProblem(new DomainError('unauthenticated', 'auth.missing_token', options.missingTokenDetail)), { 'WWW-Authenticate': `Bearer ${realm}` });
      return;
    }
    options.authenticate(match[1] as string).then((principal) => {
      res.locals[options.localsKey] = principal;
      const path = `${req.baseUrl}${req.path}`;
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      const needed = table.find((entry) => entry.method === method && entry.pattern.test(path))?.role;
      if (needed !== undefined && !options.hasRole(principal, needed)) {
        sendProblem(res, toProblem(options.forbidden(needed)));
        return;
      }
      next();
    }, (error: unknown) => {
      if (error instanceof DomainError && error.kind === 'unauthenticated') {
        sendProblem(res, toProblem(error), { 'WWW-Authenticate': `Bearer ${realm}, error="invalid_token", error_description="${error.detail.replace(/"/g, '\'')}"` });
        return;
      }
      next(error);
    });
  };
}
