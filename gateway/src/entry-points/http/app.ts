import express from 'express';
import { getAbsoluteFSPath } from 'swagger-ui-dist';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { ServiceName } from '@rental/config';
import { mapDatabaseError } from '@rental/db';
import { REQUEST_ID_HEADER, isValidRequestId, problemFor, sendProblem } from '@rental/http';
import type { Logger } from '@rental/logger';
import { httpRequestDuration } from '@rental/metrics';
import { DomainError, toProblem } from '@rental/problem';
import { type ApiKeyAuthenticator, hashApiKey } from '../../domain/api-key';
import type { RateLimiter } from '../../domain/rate-limiter';
import type { ClientAddress } from './client-address';
import { isSafePath, owningService } from '../../domain/route-table';
import type { Forward } from './proxy';

export interface GatewayOptions {
  log: Logger;
  authenticator: ApiKeyAuthenticator;
  proxies: Record<ServiceName, Forward>;
  apiDescription: () => Record<string, unknown>;
  maxBodyBytes: number;
  clientAddress: ClientAddress;
  limits: { perKey: RateLimiter; perAddress: RateLimiter };
}

const isPublicApiPath = (path: string) => path === '/api/docs.json' || path === '/api/docs' || path.startsWith('/api/docs/');

/** The reference page: Swagger UI from the installed package (no CDN), reading /api/docs.json. */
const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Partner Rental API</title><link rel="stylesheet" href="/api/docs/swagger-ui.css"></head>
<body><div id="reference"></div><script src="/api/docs/swagger-ui-bundle.js"></script><script src="/api/docs/reference.js"></script></body>
</html>`;
const REFERENCE_SCRIPT = "window.ui = SwaggerUIBundle({ url: '/api/docs.json', dom_id: '#reference', deepLinking: true });";

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}

function problem(res: ServerResponse, error: DomainError, headers: Record<string, string> = {}): void {
  sendProblem(res, toProblem(error), headers);
}

/** The API description and its reference page: express, off the hot path (health and metrics: admin port). */
function controlApp(options: GatewayOptions): express.Application {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/api/docs.json', (_req, res) => {
    res.json(options.apiDescription());
  });
  app.get('/api/docs', (_req, res) => {
    res.type('html').send(REFERENCE_PAGE);
  });
  app.get('/api/docs/reference.js', (_req, res) => {
    res.type('js').send(REFERENCE_SCRIPT);
  });
  app.use('/api/docs', express.static(getAbsoluteFSPath(), { index: false, fallthrough: true }));
  app.use((req, res) => {
    problem(res, new DomainError('not_found', 'route.not_found', `No endpoint exists at ${req.method} ${req.path}.`));
  });
  return app;
}

/**
 * Every partner call: request id, API key → partner, rate limits, signed identity, proxy to the owning
 * service. Plain node:http, because express in front of the proxy halved the throughput.
 */
function tooManyRequests(res: ServerResponse, retryAfterSeconds: number, scope: string): void {
  problem(res, new DomainError('rate_limited', 'request.rate_limited', `Too many requests for this ${scope}; retry after ${retryAfterSeconds} s.`), { 'Retry-After': String(retryAfterSeconds) });
}

async function forwardApiCall(req: IncomingMessage, res: ServerResponse, path: string, options: GatewayOptions): Promise<string | undefined> {
  const apiKey = req.headers['x-api-key'] as string | undefined;
  const partner = await options.authenticator.authenticate(apiKey);
  if (!partner) {
    // Only attempts without a valid key count against the client's address: behind a load
    // balancer many partners may share one, and a flood of guesses must not lock them out.
    const byAddress = await options.limits.perAddress.take(options.clientAddress(req));
    if (!byAddress.allowed) {
      tooManyRequests(res, byAddress.retryAfterSeconds, 'address');
      return undefined;
    }
    problem(res, new DomainError('unauthenticated', 'auth.invalid_api_key', 'A valid X-Api-Key header is required.'), { 'WWW-Authenticate': 'ApiKey header="X-Api-Key"' });
    return undefined;
  }
  const byKey = await options.limits.perKey.take(hashApiKey(apiKey as string));
  if (!byKey.allowed) {
    tooManyRequests(res, byKey.retryAfterSeconds, 'API key');
    return undefined;
  }
  if (Number(req.headers['content-length'] ?? 0) > options.maxBodyBytes) {
    problem(res, new DomainError('payload_too_large', 'request.too_large', `The request body is larger than ${options.maxBodyBytes} bytes.`));
    return undefined;
  }
  const service = isSafePath(path) ? owningService(path) : undefined;
  if (!service) {
    problem(res, new DomainError('not_found', 'route.not_found', `No endpoint exists at ${req.method} ${path}.`));
    return undefined;
  }
  delete req.headers['x-api-key'];
  // The service learns the partner only from the identity the Forward signs (identity.ts).
  options.proxies[service](req, res, partner);
  return service;
}

export function gatewayRequestListener(options: GatewayOptions): RequestListener {
  const control = controlApp(options);
  return (req, res) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const requestId = isValidRequestId(incoming) ? incoming : randomUUID();
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.setHeader('X-Request-Id', requestId);
    const path = pathOf(req.url);
    if ((path !== '/api' && !path.startsWith('/api/')) || isPublicApiPath(path)) {
      control(req, res);
      return;
    }
    const started = process.hrtime.bigint();
    let route = 'gateway';
    res.on('finish', () => {
      httpRequestDuration.observe({ method: req.method ?? '', route, status: String(res.statusCode) }, Number(process.hrtime.bigint() - started) / 1e9);
      if (res.statusCode >= 500) options.log.warn({ requestId, method: req.method, path, status: res.statusCode, service: route }, 'request failed');
    });
    forwardApiCall(req, res, path, options).then(
      (service) => {
        if (service) route = service;
      },
      (error: unknown) => {
        if (res.headersSent) res.destroy();
        else sendProblem(res, problemFor(error, [mapDatabaseError], options.log));
      },
    );
  };
}
