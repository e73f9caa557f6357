import express, { Application, NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type Logger, withRequestId } from '@rental/logger';
import type { Identity, IdentityKeys } from '@rental/identity';
import { httpRequestDuration } from '@rental/metrics';
import { DomainError, toProblem } from '@rental/problem';
import { ErrorMapper, problemFor, sendProblem } from './problem-response';
import { OperationRouter } from './router';
import { requireSignedIdentity } from './identity';
import { REQUEST_ID_HEADER, isValidRequestId } from './trusted-headers';

export interface HttpAppOptions {
  log: Logger;
  router: OperationRouter;
  /** Verifies the identity the gateway signed on every request. */
  identity: IdentityKeys;
  errorMappers?: ErrorMapper[];
  /** Largest JSON body accepted under /api. */
  jsonLimit?: string;
}

function isJsonCandidate(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  // Multipart bodies are streamed by their handler; anything else is read as JSON, because
  // partners' HTTP clients do not always label a JSON body.
  return !type || !/^multipart\//i.test(type);
}

function requestContext(log: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const requestId = isValidRequestId(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.locals.log = log.child({ requestId });
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = req.route?.path ? `${req.baseUrl}${req.route.path}` : 'unmatched';
      httpRequestDuration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
      const entry = { method: req.method, path: req.path, route, status: res.statusCode, ms: Math.round(seconds * 1e4) / 10, partnerId: res.locals.partner?.id };
      if (res.statusCode >= 500) res.locals.log.error(entry, 'request');
      else if (req.path.startsWith('/api')) res.locals.log.info(entry, 'request');
    });
    withRequestId(requestId, next);
  };
}

/** /api speaks for a partner: the one the gateway signed into the identity, never a bare header. */
function partnerContext(_req: Request, res: Response, next: NextFunction) {
  const identity = res.locals.identity as Identity;
  if (!identity.partnerId) {
    sendProblem(res, toProblem(new DomainError('unauthenticated', 'auth.missing_partner', 'The request carries no authenticated partner.')));
    return;
  }
  res.locals.partner = { id: identity.partnerId, roles: identity.roles };
  next();
}

export function createHttpApp(options: HttpAppOptions): Application {
  const app = express();
  const mappers = options.errorMappers ?? [];
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext(options.log));
  app.use(requireSignedIdentity(options.identity));

  app.use('/api', express.json({ limit: options.jsonLimit ?? '1mb', type: isJsonCandidate }));
  app.use('/api', partnerContext);
  options.router.mount(app);

  app.use((req: Request, res: Response) => {
    sendProblem(res, toProblem(new DomainError('not_found', 'route.not_found', `No endpoint exists at ${req.method} ${req.path}.`)));
  });
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const log = (res.locals.log as Logger | undefined) ?? options.log;
    if (res.headersSent) {
      log.error({ err: error }, 'error after the response started');
      res.destroy();
      return;
    }
    sendProblem(res, problemFor(error, mappers, log));
  });
  return app;
}
