import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { Webhook } from 'standardwebhooks';
import { ApiResponse } from '@rental/testkit';

export interface SignedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: any;
  /** Whether the Standard Webhooks signature verified with the party's secret. */
  verified: boolean;
}

/** `heldUntil`: the party keeps the answer until the test settles this promise (then waits `delayMs`). */
export type Answer = { status: number; body?: unknown; delayMs?: number; heldUntil?: Promise<unknown> };

/**
 * An outside party as a real HTTP server on loopback (a lender's intake, a signing provider):
 * every request is recorded and its signature verified with the party's secret
 * (`standardwebhooks`), and answered as the test tells it.
 */
export class OutsideParty {
  readonly requests: SignedRequest[] = [];
  private answer: (request: SignedRequest) => Answer;

  private constructor(
    private readonly server: http.Server,
    private readonly secret: string,
    answer: (request: SignedRequest) => Answer,
  ) {
    this.answer = answer;
  }

  static async start(secret: string, answer: (request: SignedRequest) => Answer): Promise<OutsideParty> {
    const server = http.createServer();
    const party = new OutsideParty(server, secret, answer);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let verified = true;
        try {
          new Webhook(party.secret).verify(rawBody, req.headers as Record<string, string>);
        } catch {
          verified = false;
        }
        let body: unknown = null;
        try {
          body = JSON.parse(rawBody);
        } catch {
          // recorded as received
        }
        const request: SignedRequest = { path: req.url ?? '', headers: req.headers, rawBody, body, verified };
        party.requests.push(request);
        const answer = party.answer(request);
        const reply = () =>
          setTimeout(() => {
            if (res.destroyed) return;
            if (answer.body === undefined) res.writeHead(answer.status).end();
            else res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body));
          }, answer.delayMs ?? 0);
        if (answer.heldUntil) void answer.heldUntil.then(reply);
        else reply();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return party;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  answerWith(answer: (request: SignedRequest) => Answer): void {
    this.answer = answer;
  }

  /** Requests whose body names this case (application or envelope). */
  about(financingCaseId: string): SignedRequest[] {
    return this.requests.filter((request) => request.body?.data?.financingCaseId === financingCaseId);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

/** A signed event as a lender or the signing provider sends it. */
export function signedEvent(
  secret: string,
  type: string,
  data: unknown,
  options: { id?: string; at?: Date } = {},
): { raw: string; headers: Record<string, string>; id: string } {
  const at = options.at ?? new Date();
  return signedRaw(secret, JSON.stringify({ type, timestamp: at.toISOString(), data }), { ...options, at });
}

/** Any body, signed as it is. */
export function signedRaw(secret: string, raw: string, options: { id?: string; at?: Date } = {}): { raw: string; headers: Record<string, string>; id: string } {
  const id = options.id ?? `msg_${randomUUID()}`;
  const at = options.at ?? new Date();
  return {
    raw,
    id,
    headers: {
      'Content-Type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, raw),
    },
  };
}

export async function postRaw(url: string, raw: string, headers: Record<string, string>): Promise<ApiResponse> {
  const response = await fetch(url, { method: 'POST', headers, body: raw });
  const text = await response.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, contentType: response.headers.get('content-type') ?? '', text, json };
}

/** The lines of text drawn in a PDF made with pdf-lib's standard fonts (hex strings in its content streams). */
export function pdfLines(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  const lines: string[] = [];
  const start = /stream\r?\n/g;
  for (let match = start.exec(text); match; match = start.exec(text)) {
    const from = match.index + match[0].length;
    const to = text.indexOf('endstream', from);
    if (to < 0) break;
    const chunk = Buffer.from(text.slice(from, to), 'latin1');
    let content: string;
    try {
      content = inflateSync(chunk).toString('latin1');
    } catch {
      content = chunk.toString('latin1');
    }
    for (const shown of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)) lines.push(Buffer.from(shown[1] as string, 'hex').toString('latin1'));
    start.lastIndex = to;
  }
  return lines;
}
