import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { sendProblem } from '@rental/http';
import { DomainError, toProblem } from '@rental/problem';

export interface BearerAuthenticationOptions<Principal> {
  /** `realm="…"` of WWW-Authenticate. */
  realm: string;
  /** The 401 detail without a token ("An operator's bearer token … is required."). */
  missingTokenDetail: string;
  /** The principal a raw bearer token names; a DomainError `unauthenticated` answers 401. */
  authenticate(token: string): Promise<Principal>;
  /** Where the principal is kept (`res.locals[key]`) for the route's authorization and handler. */
  localsKey: string;
}

/**
 * Every call under the API prefix names its principal with a bearer JWT: missing or invalid is
 * 401 with WWW-Authenticate: Bearer, before the body is read and before anything is looked up.
 * Roles are not decided here but on the route that answers (OperationRouter's `authorization`),
 * so no spelling of a path can reach a handler past its role.
 */
export function bearerAuthentication<Principal>(options: BearerAuthenticationOptions<Principal>): RequestHandler {
  const realm = `realm="${options.realm}"`;
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+([A-Za-z0-9\-_.~+/]+=*)\s*$/i.exec(header);
    if (!match) {
      sendProblem(res, toProblem(new DomainError('unauthenticated', 'auth.missing_token', options.missingTokenDetail)), {
        'WWW-Authenticate': `Bearer ${realm}`,
      });
      return;
    }
    options.authenticate(match[1] as string).then(
      (principal) => {
        res.locals[options.localsKey] = principal;
        next();
      },
      (error: unknown) => {
        if (error instanceof DomainError && error.kind === 'unauthenticated') {
          sendProblem(res, toProblem(error), {
            'WWW-Authenticate': `Bearer ${realm}, error="invalid_token", error_description="${error.detail.replace(/"/g, "'")}"`,
          });
          return;
        }
        next(error);
      },
    );
  };
}
