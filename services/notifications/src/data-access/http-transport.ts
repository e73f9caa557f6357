import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { traceHeaders } from '@rental/logger';
import type { TransportResult, WebhookRequest, WebhookTransport } from '../domain/delivery';
import type { ResolvedAddress } from '../domain/model';

const errorDescriptions: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed while sending',
  EPROTO: 'TLS handshake failed',
};

function describeError(error: NodeJS.ErrnoException): string {
  const code = error.code ?? '';
  if (errorDescriptions[code]) return errorDescriptions[code];
  if (/CERT|TLS|SSL/i.test(code)) return `TLS certificate not accepted (${code})`;
  return code ? `connection failed (${code})` : `connection failed (${error.message})`;
}

/** A lookup that answers with the address that was checked, so the socket cannot land elsewhere. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
}

/**
 * POSTs a webhook with node:http(s): redirects are never followed, the whole exchange up to the
 * response status is bounded by the timeout, and the TLS name check uses the URL's host while
 * the connection goes to the checked address.
 */
export class HttpWebhookTransport implements WebhookTransport {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxFreeSockets: 64 }),
    'https:': new https.Agent({ keepAlive: true, maxFreeSockets: 64 }),
  };

  post(request: WebhookRequest): Promise<TransportResult> {
    const { url } = request;
    const secure = url.protocol === 'https:';
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: TransportResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      let req: http.ClientRequest | undefined;
      const timer = setTimeout(() => {
        // libuv's timer clock may run up to 1 ms ahead of performance.now(); the attempt did last the timeout.
        finish({ error: `no answer within ${request.timeoutMs} ms`, durationMs: Math.max(elapsed(), request.timeoutMs) });
        req?.destroy();
      }, request.timeoutMs);
      try {
        req = (secure ? https : http).request({
          method: 'POST',
          protocol: url.protocol,
          hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
          port: url.port || (secure ? 443 : 80),
          path: `${url.pathname}${url.search}`,
          // traceparent: the receiver can log the delivery under the trace of the change it reports.
          headers: { ...request.headers, ...traceHeaders(), 'Content-Length': String(Buffer.byteLength(request.body)) },
          agent: this.agents[secure ? 'https:' : 'http:'],
          lookup: pinnedLookup(request.addresses[0]!),
        });
      } catch (error) {
        // Options node refuses (a header or path it cannot send) fail this attempt, not the worker.
        finish({ error: `request not sent (${(error as Error).message})`, durationMs: elapsed() });
        return;
      }
      req.on('response', (res) => {
        finish({ statusCode: res.statusCode ?? 0, durationMs: elapsed() });
        // Only the status counts; the body is read and discarded so the connection can be reused.
        const bodyTimer = setTimeout(() => res.destroy(), request.timeoutMs);
        res.on('close', () => clearTimeout(bodyTimer));
        res.resume();
      });
      req.on('error', (error) => finish({ error: describeError(error), durationMs: elapsed() }));
      req.end(request.body);
    });
  }

  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}
