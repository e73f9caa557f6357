import express, { Application, NextFunction, Request, RequestHandler, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type Logger, TRACEPARENT_HEADER, continueTrace, withTrace } from '@rental/logger';
import type { Identity, IdentityKeys } from '@rental/identity';
import { httpRequestDuration } from '@rental/metrics';
import { DomainError, isDomainError, toProblem } from '@rental/problem';
import { createExpressApp } from './express-app';
import { ErrorMapper, problemFor, sendProblem } from './problem-response';
import { OperationRouter } from './router';
import { malformedEncoding, rejectUnstorableText } from './text-integrity';
import { requireSignedIdentity } from './identity';
import { REQUEST_ID_HEADER, isValidRequestId } from './trusted-headers';

export interface HttpAppOptions {
  log: Logger;
  router: OperationRouter;
  /** Verifies the identity the gateway signed on every request. */
  identity: IdentityKeys;
  errorMappers?: ErrorMapper[];
  /** Largest JSON body accepted under the API prefix. */
  jsonLimit?: string;
  /** Routes outside /api (outside parties' callbacks), each with its own body parsing and authentication. */
  mountOutsideApi?: (app: Application) => void;
  /** Where the operations live (default /api, the partner API). */
  apiPrefix?: string;
  /**
   * Who calls, before any body is read (default: the partner the gateway signed into the
   * identity). The back office verifies the operator's bearer token here instead.
   */
  authenticate?: RequestHandler;
  /** Pages and files served beside the API (the back office's console). */
  beforeApi?: (app: Application) => void;
}

function isJsonCandidate(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  // Multipart bodies are streamed by their handler; anything else is read as JSON, because
  // partners' HTTP clients do not always label a JSON body.
  return !type || !/^multipart\//i.test(type);
}

/**
 * Paths under the API prefix (the partner's or the operator's API) name ids and are logged as
 * they are; other paths can carry a credential (a customer's link token), so their lines name
 * the route template only.
 */
function loggedPath(path: string, apiPrefix: string): string | undefined {
  return path === apiPrefix || path.startsWith(`${apiPrefix}/`) ? path : undefined;
}

function requestContext(log: Logger, apiPrefix: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const requestId = isValidRequestId(incoming) ? incoming : randomUUID();
    // The gateway's span is the parent; a request that did not come through it starts a trace.
    const trace = continueTrace({ traceparent: req.headers[TRACEPARENT_HEADER], requestId });
    res.locals.requestId = requestId;
    // Made on first use: most requests log nothing but their access line, written below with the
    // process's logger, and a child logger per request (pino serialises and redacts its bindings)
    // cost more than that line.
    let requestLog: Logger | undefined;
    Object.defineProperty(res.locals, 'log', {
      get: () => {
        requestLog ??= log.child({ requestId, traceId: trace.traceId });
        return requestLog;
      },
      enumerable: true,
    });
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = req.route?.path ? `${req.baseUrl}${req.route.path}` : 'unmatched';
      httpRequestDuration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
      const entry = {
        requestId,
        traceId: trace.traceId,
        method: req.method,
        path: loggedPath(req.path, apiPrefix),
        route,
        status: res.statusCode,
        ms: Math.round(seconds * 1e4) / 10,
        partnerId: res.locals.partner?.id,
      };
      if (res.statusCode >= 500) log.error(entry, 'request');
      else if (req.path.startsWith('/api') || req.path.startsWith('/ops')) log.info(entry, 'request');
    });
    withTrace(trace, next);
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
  const app = createExpressApp();
  const mappers = options.errorMappers ?? [];
  const prefix = options.apiPrefix ?? '/api';
  app.use(requestContext(options.log, prefix));

  app.use(requireSignedIdentity(options.identity, (path) => loggedPath(path, prefix)));
  options.beforeApi?.(app);
  app.use(prefix, options.authenticate ?? partnerContext);
  // Who may call an operation is decided on the route that will answer, before its body is read.
  options.router.mountAuthorization(app);
  app.use(prefix, express.json({ limit: options.jsonLimit ?? '1mb', type: isJsonCandidate }));
  app.use(prefix, rejectUnstorableText);
  // The customer's API: its link token is the credential, so there is no partner context.
  app.use('/customer', express.json({ limit: '64kb', type: isJsonCandidate }));
  app.use('/customer', rejectUnstorableText);
  options.router.mount(app);
  options.mountOutsideApi?.(app);

  app.use((req: Request, res: Response) => {
    sendProblem(res, toProblem(new DomainError('not_found', 'route.not_found', `No endpoint exists at ${req.method} ${req.path}.`)));
  });
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const log = (res.locals.log as Logger | undefined) ?? options.log;
    if (res.headersSent) {
      log.error({ err: error }, 'error after the response started');
      res.destroy();
      return;
    }
    const retryAfterSeconds = isDomainError(error) ? error.retryAfterSeconds : undefined;
    sendProblem(
      res,
      problemFor(malformedEncoding(error, req) ?? error, mappers, log),
      retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) },
    );
  });
  return app;
}
