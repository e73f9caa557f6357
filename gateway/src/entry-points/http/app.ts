import express from 'express';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { ServiceName } from '@rental/config';
import { mapDatabaseError } from '@rental/db';
import { REQUEST_ID_HEADER, createExpressApp, isValidRequestId, keylessCheckoutHeaders, problemFor, sendProblem } from '@rental/http';
import { type Logger, TRACEPARENT_HEADER, continueTrace, traceparentOf, withTrace } from '@rental/logger';
import { httpRequestDuration } from '@rental/metrics';
import { DomainError, PROBLEM_TYPE_PATH, type ProblemCatalogue, toProblem } from '@rental/problem';
import type { ApiKeyAuthenticator, KeyRefusal } from '../../domain/api-key';
import type { RateLimiter } from '../../domain/ports';
import { type ServiceRoute, isKeylessCheckout, isPartnerApiPath, routeOf } from '../../domain/route-table';
import type { ClientAddress } from './client-address';
import { PROBLEM_INDEX_PATH, problemIndexPage, problemPage } from './problem-pages';
import type { Forward } from './proxy';

export interface GatewayOptions {
  log: Logger;
  authenticator: ApiKeyAuthenticator;
  proxies: Record<ServiceName, Forward>;
  apiDescription: () => Record<string, unknown>;
  maxBodyBytes: number;
  clientAddress: ClientAddress;
  limits: { perKey: RateLimiter; perAddress: RateLimiter };
  /** What the console needs to sign operators in (GET /ops/v1/session-config). */
  sessionConfig: { issuer: string; audience: string; consoleClientId: string };
  /** The described route template of a path (the metrics' `route` label). */
  routeOf: (path: string) => string;
  /** Every problem code with its page (`type` of a problem answer opens it). */
  problems: ProblemCatalogue;
}

const SESSION_CONFIG_PATH = '/ops/v1/session-config';

/** The reference page: Swagger UI from the installed package (no CDN), reading /api/docs.json. */
const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Partner Rental API</title><link rel="stylesheet" href="/api/docs/swagger-ui.css"></head>
<body><div id="reference"></div><script src="/api/docs/swagger-ui-bundle.js"></script><script src="/api/docs/reference.js"></script></body>
</html>`;
/**
 * Where swagger-ui-dist's files are. Its main module loads the whole browser bundle into the
 * gateway (a tenth of the gateway's start-up CPU and tens of MB of heap) only to say so.
 */
const SWAGGER_UI_DIRECTORY = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const REFERENCE_SCRIPT = "window.ui = SwaggerUIBundle({ url: '/api/docs.json', dom_id: '#reference', deepLinking: true });";

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}

function problem(res: ServerResponse, error: DomainError, headers: Record<string, string> = {}): void {
  sendProblem(res, toProblem(error), headers);
}

/**
 * The API description, its reference page, the problem types' pages and the console's session
 * config: express, off the hot path (health and metrics: admin port).
 */
function controlApp(options: GatewayOptions): express.Application {
  const app = createExpressApp();
  app.get(SESSION_CONFIG_PATH, (_req, res) => {
    res.set('Cache-Control', 'no-store').json(options.sessionConfig);
  });
  app.get('/api/docs.json', (_req, res) => {
    res.json(options.apiDescription());
  });
  app.get('/api/docs', (_req, res) => {
    res.type('html').send(REFERENCE_PAGE);
  });
  app.get('/api/docs/reference.js', (_req, res) => {
    res.type('js').send(REFERENCE_SCRIPT);
  });
  app.use('/api/docs', express.static(SWAGGER_UI_DIRECTORY, { index: false, fallthrough: true }));
  const problemIndex = problemIndexPage(options.problems);
  app.get(PROBLEM_INDEX_PATH, (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').type('html').send(problemIndex);
  });
  app.get(`${PROBLEM_TYPE_PATH}:code`, (req, res, next) => {
    const description = Object.hasOwn(options.problems, req.params.code) ? options.problems[req.params.code] : undefined;
    if (!description) {
      next();
      return;
    }
    res.set('Cache-Control', 'public, max-age=300').type('html').send(problemPage(req.params.code, description));
  });
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
  problem(res, new DomainError('rate_limited', 'request.rate_limited', `Too many requests for this ${scope}; retry after ${retryAfterSeconds} s.`), {
    'Retry-After': String(retryAfterSeconds),
  });
}

/** What the access log and the metrics learn while a call is handled. */
interface CallOutcome {
  partnerId?: string;
  /** The service the call was forwarded to; `gateway` while the gateway answers by itself. */
  service: string;
}

/** Answers 413 when the declared body is larger than the gateway takes, before it is read or forwarded. */
function refusedAsTooLarge(req: IncomingMessage, res: ServerResponse, maxBodyBytes: number): boolean {
  const tooLarge = Number(req.headers['content-length'] ?? 0) > maxBodyBytes;
  if (tooLarge) problem(res, new DomainError('payload_too_large', 'request.too_large', `The request body is larger than ${maxBodyBytes} bytes.`));
  return tooLarge;
}

/** A known key that may not be used: each reason has its own problem type (PARTNER-PORTAL.md section 2). */
const REFUSALS: Record<KeyRefusal, () => DomainError> = {
  'api_key.revoked': () => new DomainError('unauthenticated', 'api_key.revoked', 'This API key was revoked. Use another key of this environment.'),
  'api_key.expired': () =>
    new DomainError('unauthenticated', 'api_key.expired', 'This API key has expired. Use its successor or create a new key in the partner portal.'),
  'partner.suspended': () =>
    new DomainError('unauthenticated', 'partner.suspended', 'This partner is suspended; its keys do not work until it is reactivated.'),
};

async function forwardApiCall(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  route: ServiceRoute | undefined,
  options: GatewayOptions,
  outcome: CallOutcome,
): Promise<void> {
  const apiKey = req.headers['x-api-key'] as string | undefined;
  const authentication = await options.authenticator.authenticate(apiKey);
  const authenticated = authentication && 'accepted' in authentication ? authentication.accepted : undefined;
  if (!authenticated) {
    // Only attempts without a valid key count against the client's address: behind a load
    // balancer many partners may share one, and a flood of guesses must not lock them out.
    const byAddress = await options.limits.perAddress.take(options.clientAddress(req));
    if (!byAddress.allowed) {
      tooManyRequests(res, byAddress.retryAfterSeconds, 'address');
      return;
    }
    const refusal = authentication && 'refused' in authentication ? authentication.refused : undefined;
    const error = refusal ? REFUSALS[refusal]() : new DomainError('unauthenticated', 'auth.invalid_api_key', 'A valid X-Api-Key header is required.');
    problem(res, error, { 'WWW-Authenticate': 'ApiKey header="X-Api-Key"' });
    return;
  }
  const { partner, keyHash } = authenticated;
  outcome.partnerId = partner.partnerId;
  const byKey = await options.limits.perKey.take(keyHash);
  if (!byKey.allowed) {
    tooManyRequests(res, byKey.retryAfterSeconds, 'API key');
    return;
  }
  if (refusedAsTooLarge(req, res, options.maxBodyBytes)) return;
  if (!route) {
    problem(res, new DomainError('not_found', 'route.not_found', `No endpoint exists at ${req.method} ${path}.`));
    return;
  }
  delete req.headers['x-api-key'];
  outcome.service = route.owner;
  // The service learns the partner only from the identity the Forward signs (identity.ts).
  options.proxies[route.owner](req, res, partner);
}

/**
 * A call without an API key (a customer's link, a lender's or the signing provider's callback,
 * the back office): its owner authenticates it, so it is throttled by client address; the
 * Forward drops client identity headers and signs an identity without a partner, and the body
 * is streamed to the service unread.
 */
async function forwardKeylessCall(
  req: IncomingMessage,
  res: ServerResponse,
  service: ServiceName,
  options: GatewayOptions,
  outcome: CallOutcome,
): Promise<void> {
  const byAddress = await options.limits.perAddress.take(options.clientAddress(req));
  if (!byAddress.allowed) {
    tooManyRequests(res, byAddress.retryAfterSeconds, 'address');
    return;
  }
  if (refusedAsTooLarge(req, res, options.maxBodyBytes)) return;
  delete req.headers['x-api-key'];
  outcome.service = service;
  options.proxies[service](req, res);
}

export function gatewayRequestListener(options: GatewayOptions): RequestListener {
  const control = controlApp(options);
  return (req, res) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const requestId = isValidRequestId(incoming) ? incoming : randomUUID();
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.setHeader('X-Request-Id', requestId);
    // The trace starts here: in the partner's trace when it sent a valid traceparent, else in a
    // new one; the services get the gateway's span as their parent.
    const trace = continueTrace({ traceparent: req.headers[TRACEPARENT_HEADER], requestId });
    req.headers[TRACEPARENT_HEADER] = traceparentOf(trace);
    const path = pathOf(req.url);
    const owned = routeOf(path);
    if (owned?.owner === 'gateway' || (!owned && !isPartnerApiPath(path))) {
      withTrace(trace, () => control(req, res));
      return;
    }
    if (isKeylessCheckout(req.method, path, req.headers['idempotency-key'])) {
      for (const [name, value] of Object.entries(keylessCheckoutHeaders())) res.setHeader(name, value);
    }
    const started = process.hrtime.bigint();
    const route = options.routeOf(path);
    const outcome: CallOutcome = { service: 'gateway' };
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const { service, partnerId } = outcome;
      httpRequestDuration.observe({ method: req.method ?? '', route, service, status: String(res.statusCode) }, seconds);
      // The access log: one line per call, by route template, so no id from the path is written.
      const entry = {
        requestId,
        traceId: trace.traceId,
        method: req.method,
        route,
        status: res.statusCode,
        ms: Math.round(seconds * 1e4) / 10,
        partnerId: partnerId ?? null,
        service,
      };
      if (res.statusCode >= 500) options.log.warn(entry, 'request');
      else options.log.info(entry, 'request');
    });
    // Keyless paths (customer tokens among them) have no described template: `unmatched` keeps tokens out of the log.
    withTrace(trace, () => {
      const forwarding =
        owned?.key === 'none' ? forwardKeylessCall(req, res, owned.owner, options, outcome) : forwardApiCall(req, res, path, owned, options, outcome);
      forwarding.catch((error: unknown) => {
        if (res.headersSent) res.destroy();
        else sendProblem(res, problemFor(error, [mapDatabaseError], options.log));
      });
    });
  };
}
