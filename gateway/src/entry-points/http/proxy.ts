import type { IncomingMessage, ServerResponse } from 'node:http';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { Logger } from '@rental/logger';
import { DomainError, toProblem } from '@rental/problem';
import { problemFor, sendProblem } from '@rental/http';
import type { IdentityKeys } from '@rental/identity';
import { type AssertedPartner, assertIdentity } from './identity';
import { UndiciEngine } from './undici-engine';

/** Sends a request on to one service, signed as the partner given, or as no partner. */
export type Forward = (req: IncomingMessage, res: ServerResponse, partner?: AssertedPartner) => void;

/**
 * Connections to the services are reused (opening one per request doubled the gateway's
 * latency), and there are more than the gateway ever has requests in flight to one service.
 */
export function upstreamEngine(): UndiciEngine {
  return new UndiciEngine({ connectionsPerService: 256, keepAliveMs: 60_000 });
}

/**
 * Forwards to one service. Tuned from http-proxy-middleware's defaults: its default plugins
 * (logger, event hooks, error page) are ejected, because on a trivial route they cost a quarter
 * of the throughput, and its requests go through undici (undici-engine.ts, docs/benchmarks.md);
 * errors become 503 problem+json here.
 */
export function serviceProxy(target: string, engine: UndiciEngine, timeoutMs: number, log: Logger, identity: IdentityKeys): Forward {
  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    target,
    xfwd: true,
    proxyTimeout: timeoutMs,
    ejectPlugins: true,
    plugins: [
      engine.plugin,
      (proxyServer) => {
        // The only hook kept: an upstream that refuses or drops the connection becomes a 503 problem.
        proxyServer.on('error', (error, _req, res) => {
          const response = res as ServerResponse;
          if (!('headersSent' in response)) return;
          log.warn({ err: error, target }, 'upstream service unavailable');
          if (response.headersSent) {
            response.destroy();
            return;
          }
          sendProblem(
            response,
            toProblem(
              new DomainError('unavailable', 'dependency.service_unavailable', 'The service behind this endpoint is not available right now. Retry later.'),
            ),
            { 'Retry-After': '1' },
          );
        });
      },
    ],
  });
  return (req, res, partner) => {
    assertIdentity(req, identity, partner).then(
      () => proxy(req, res, () => undefined),
      (error: unknown) => sendProblem(res, problemFor(error, [], log)),
    );
  };
}
