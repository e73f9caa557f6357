import http from 'node:http';
import { loopbackUrl, startLoopbackServer } from './loopback-server';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The exact bytes received; signatures are computed over these. */
  rawBody: Buffer;
  receivedAt: number;
}

/** How to answer a request: a status (after a delay), or `no_answer` to hold it open until the sender gives up. */
export type Responder = (request: ReceivedRequest) => { status: number; delayMs?: number; headers?: Record<string, string> } | 'no_answer';

/** A real HTTP server on loopback that records every webhook and answers as told. */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  /** Requests whose sender closed the connection before they were answered (a timeout, say). */
  readonly abandoned: ReceivedRequest[] = [];
  private responder: Responder = () => ({ status: 204 });
  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<WebhookReceiver> {
    const receiver: WebhookReceiver = new WebhookReceiver(
      await startLoopbackServer((req, rawBody, res) => {
        const request: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawBody, receivedAt: Date.now() };
        receiver.requests.push(request);
        res.on('close', () => {
          if (!res.writableEnded) receiver.abandoned.push(request);
        });
        const answer = receiver.responder(request);
        if (answer === 'no_answer') return;
        setTimeout(() => {
          if (!res.destroyed) res.writeHead(answer.status, answer.headers).end();
        }, answer.delayMs ?? 0);
      }),
    );
    return receiver;
  }

  get url(): string {
    return loopbackUrl(this.server);
  }

  respondWith(responder: Responder): void {
    this.responder = responder;
  }

  /** Parsed JSON bodies received so far. */
  bodies<T = any>(): T[] {
    return this.requests.map((request) => JSON.parse(request.rawBody.toString('utf8')) as T);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
