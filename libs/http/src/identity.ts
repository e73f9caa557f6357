import type { NextFunction, Request, Response } from 'express';
import { IDENTITY_HEADER, type Identity, IdentityKeys, IdentityRefused } from '@rental/identity';
import type { Logger } from '@rental/logger';
import { DomainError, toProblem } from '@rental/problem';
import { sendProblem } from './problem-response';

/**
 * Every request on a service's public port must carry the identity the gateway signed; health,
 * readiness and metrics live on the admin port (admin.ts), so nothing here is exempt. The
 * verified identity is `res.locals.identity`.
 */
export function requireSignedIdentity(keys: IdentityKeys, loggedPath: (path: string) => string | undefined) {
  return (req: Request, res: Response, next: NextFunction) => {
    keys.verify(req.headers[IDENTITY_HEADER]).then(
      (identity: Identity) => {
        res.locals.identity = identity;
        next();
      },
      (error: unknown) => {
        if (!(error instanceof IdentityRefused)) {
          next(error);
          return;
        }
        (res.locals.log as Logger).warn({ reason: error.message, path: loggedPath(req.path) }, 'request without a valid signed identity refused');
        sendProblem(
          res,
          toProblem(
            new DomainError(
              'unauthenticated',
              'auth.identity_refused',
              'The request carries no valid signed identity; services are reached only through the gateway.',
            ),
          ),
        );
      },
    );
  };
}
