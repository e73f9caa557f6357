import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Plugin } from 'http-proxy-middleware';
import { Pool } from 'undici';

/**
 * The forwarding engine behind http-proxy-middleware: its `proxyServer.web` (node-http-proxy on a
 * node:http Agent) is replaced by one undici Pool per service. The middleware, its options and its
 * `error` event stay the gateway's interface; only the requests to the services change engine.
 * Why: on the same 2 cores a node:http proxy keeps about 0.65× of a trivial upstream's direct
 * throughput whatever the agent settings, and undici's client about 0.9× (docs/benchmarks.md).
 */

/** Hop-by-hop headers (RFC 9110 §7.6.1) end at the gateway in both directions; undici refuses most of them. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'proxy-authenticate',
  'proxy-authorization',
]);

export interface EngineOptions {
  /** Connections kept open to each service: more than the gateway's busiest concurrency, so a request never waits for one. */
  connectionsPerService: number;
  /** A connection idle this long is closed. */
  keepAliveMs: number;
}

interface ForwardOptions {
  target?: unknown;
  xfwd?: boolean;
  proxyTimeout?: number;
}

function withoutHopByHop(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}

/** The x-forwarded-* headers node-http-proxy's `xfwd` sets: the client is appended, the first host kept. */
function addForwardedHeaders(req: IncomingMessage, headers: Record<string, string | string[]>): void {
  const values = {
    for: req.socket.remoteAddress ?? '',
    port: String(req.socket.localPort ?? ''),
    proto: (req.socket as TLSSocket).encrypted ? 'https' : 'http',
  };
  for (const [name, value] of Object.entries(values)) {
    const existing = headers[`x-forwarded-${name}`];
    headers[`x-forwarded-${name}`] = existing ? `${String(existing)},${value}` : value;
  }
  headers['x-forwarded-host'] = headers['x-forwarded-host'] ?? req.headers.host ?? '';
}

/** A request with neither a length nor a chunked body has none (RFC 9112 §6.3): undici then sends no body either. */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
}

/** One undici Pool per service target, shared by the proxies of every service. */
export class UndiciEngine {
  private readonly pools = new Map<string, Pool>();

  constructor(private readonly options: EngineOptions) {}

  /** The pool of a proxy's target, found by the target as configured: no URL is parsed per request. */
  private poolOf(target: string): Pool {
    let pool = this.pools.get(target);
    if (!pool) {
      pool = new Pool(new URL(target).origin, { connections: this.options.connectionsPerService, keepAliveTimeout: this.options.keepAliveMs, pipelining: 1 });
      this.pools.set(target, pool);
    }
    return pool;
  }

  /** The http-proxy-middleware plugin that puts this engine behind the middleware. */
  readonly plugin: Plugin = (proxyServer) => {
    const forward = (req: IncomingMessage, res: ServerResponse, options: ForwardOptions = {}) => {
      const headers = withoutHopByHop(req.headers);
      if (options.xfwd) addForwardedHeaders(req, headers);
      this.poolOf(String(options.target)).stream(
        {
          path: req.url ?? '/',
          method: req.method as 'GET',
          headers,
          body: hasBody(req) ? req : undefined,
          headersTimeout: options.proxyTimeout,
          bodyTimeout: options.proxyTimeout,
        },
        // A client that goes away stops the service's answer too: once the answer has begun, undici
        // aborts the request when `res` closes before it is finished. No signal is given for the
        // time before: an AbortController per request was an eighth of the gateway's CPU on a
        // trivial route (measured), and the service finishes its work whether or not it is aborted.
        ({ statusCode, headers: answered }) => {
          res.writeHead(statusCode, withoutHopByHop(answered as IncomingHttpHeaders) as OutgoingHttpHeaders);
          return res;
        },
        (error) => {
          if (error) proxyServer.emit('error', error, req, res, options.target);
        },
      );
    };
    proxyServer.web = forward as typeof proxyServer.web;
  };

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
  }
}
