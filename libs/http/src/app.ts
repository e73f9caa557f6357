import express, { Application, NextFunction, Request, RequestHandler, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type Logger, withRequestId } from '@rental/logger';
import { httpRequestDuration, metricsContentType, renderMetrics } from '@rental/metrics';
import { DomainError, toProblem } from '@rental/problem';
import { ErrorMapper, problemFor, sendProblem } from './problem-response';
import { OperationRouter } from './router';
import { malformedEncoding, rejectUnstorableText } from './text-integrity';
import { REQUEST_ID_HEADER, TRUSTED_HEADERS, isValidRequestId } from './trusted-headers';

export type ReadinessCheck = () => Promise<Record<string, boolean>>;

export interface HttpAppOptions {
  log: Logger;
  router: OperationRouter;
  readiness: ReadinessCheck;
  errorMappers?: ErrorMapper[];
  /** Largest JSON body accepted under the API prefix. */
  jsonLimit?: string;
  /** Routes outside /api (outside parties' callbacks), each with its own body parsing and authentication. */
  mountOutsideApi?: (app: Application) => void;
  /** Where the operations live (default /api, the partner API). */
  apiPrefix?: string;
  /**
   * Who calls, before any body is read (default: the partner the gateway names in the trusted
   * headers). The back office verifies the operator's bearer token here instead.
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
      else if (req.path.startsWith('/api') || req.path.startsWith('/ops')) res.locals.log.info(entry, 'request');
    });
    withRequestId(requestId, next);
  };
}

/** Services are reached only through the gateway, which sets the trusted partner headers. */
function partnerContext(req: Request, res: Response, next: NextFunction) {
  const id = req.headers[TRUSTED_HEADERS.partnerId];
  const environment = req.headers[TRUSTED_HEADERS.environment];
  if (typeof id !== 'string' || !id || typeof environment !== 'string') {
    sendProblem(res, toProblem(new DomainError('unauthenticated', 'auth.missing_partner', 'The request carries no authenticated partner.')));
    return;
  }
  const roles = req.headers[TRUSTED_HEADERS.roles];
  res.locals.partner = {
    id,
    environment,
    roles: typeof roles === 'string' && roles ? roles.split(',').map((role) => role.trim()) : [],
  };
  next();
}

export function createHttpApp(options: HttpAppOptions): Application {
  const app = express();
  const mappers = options.errorMappers ?? [];
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext(options.log));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = await options.readiness().catch(() => ({ readiness: false }));
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', metricsContentType());
    res.send(await renderMetrics());
  });

  const prefix = options.apiPrefix ?? '/api';
  options.beforeApi?.(app);
  app.use(prefix, options.authenticate ?? partnerContext);
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
    sendProblem(res, problemFor(malformedEncoding(error, req) ?? error, mappers, log));
  });
  return app;
}
