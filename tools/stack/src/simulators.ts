import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomUUID } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import { durationVariable, platformVariables, portVariable } from '@rental/config';

/**
 * The outside parties of the production path, simulated for the local stack: a lender for every
 * lender without an intakeUrl, the signing provider unless SIGNING_PROVIDER_URL is set, and the
 * credit bureau. They speak the contracts of docs PRODUCTION-PATH sections 3 and 4 exactly:
 * signed both ways, decisions and signatures through the same callbacks a real party uses.
 */
/** The variables of the simulators' own process (docker compose's dev profile). */
export const simulatorProcessVariables = {
  DATABASE_URL: platformVariables.DATABASE_URL,
  HOST: z.string().default('0.0.0.0'),
  LENDER_SIMULATOR_PORT: portVariable(8081),
  SIGNING_SIMULATOR_PORT: portVariable(8082),
  CREDIT_BUREAU_SIMULATOR_PORT: portVariable(8083),
  SIGNING_WEBHOOK_SECRET: z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, 'must be a whsec_ secret (whsec_ and base64)'),
  LENDER_SIMULATOR_DELAY: durationVariable('3s'),
  SIGNING_SIMULATOR_DELAY: durationVariable('5s'),
};

export interface RunningSimulator {
  url: string;
  close(): Promise<void>;
}

const ACCEPT_UP_TO = 50_000;
const QUESTIONS_UP_TO = 250_000;
/** Callbacks are retried like a real party does: our side may still be committing what it answered. */
const CALLBACK_RETRIES_MS = [200, 500, 1_000, 2_000, 5_000, 10_000];

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function headersOf(req: http.IncomingMessage): Record<string, string> {
  return Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(req.headers[name] ?? '')]));
}

function verified(secret: string, body: string, req: http.IncomingMessage): Record<string, unknown> | undefined {
  try {
    return new Webhook(secret).verify(body, headersOf(req)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** POSTs a signed event to a callback URL, the same webhook-id on every retry, until a 2xx or a final refusal. */
async function deliver(url: string, secret: string, type: string, data: unknown, onFailure: (message: string) => void): Promise<void> {
  const id = `msg_${randomUUID()}`;
  const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
  for (let attempt = 0; ; attempt += 1) {
    const at = new Date();
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': new Webhook(secret).sign(id, at, body),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      if (response.ok) return;
      // 404 may be our side still committing the envelope it just answered for; 401/409/422 are final.
      if (response.status !== 404 && response.status < 500) {
        onFailure(`${type} to ${url}: ${response.status} ${await response.text()}`);
        return;
      }
    } catch {
      // not reachable right now
    }
    const wait = CALLBACK_RETRIES_MS[attempt];
    if (wait === undefined) {
      onFailure(`${type} to ${url}: no success after ${attempt + 1} attempts`);
      return;
    }
    await sleep(wait);
  }
}

function listen(server: http.Server, port: number, host: string): Promise<RunningSimulator> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () =>
      resolve({
        url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${(server.address() as AddressInfo).port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    );
  });
}

function json(res: http.ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

type Later = (ms: number, callback: () => void) => void;

/**
 * An outside party's simulator: answers GET /readyz, hands every other request to `handle`,
 * answers 503 when it throws, and on close drops the callbacks `later` still holds.
 */
async function startSimulator(
  name: string,
  options: { port: number; host?: string; report?: (message: string) => void },
  handle: (req: http.IncomingMessage, res: http.ServerResponse, later: Later) => Promise<void>,
): Promise<RunningSimulator> {
  const timers = new Set<NodeJS.Timeout>();
  const later: Later = (ms, callback) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      callback();
    }, ms);
    timers.add(timer);
  };
  const server = http.createServer(async (req, res) => {
    try {
      if (req.method === 'GET' && req.url === '/readyz') return json(res, 200, { status: 'ready' });
      await handle(req, res, later);
    } catch (error) {
      options.report?.(`${name}: ${(error as Error).message}`);
      if (!res.headersSent) json(res, 503, { error: 'simulator failed' });
    }
    return undefined;
  });
  const running = await listen(server, options.port, options.host ?? '127.0.0.1');
  return {
    url: running.url,
    close: async () => {
      timers.forEach(clearTimeout);
      await running.close();
    },
  };
}

export interface LenderSimulatorOptions {
  /** A lender's secret as the seed command loaded it (case-workflow's lenders); undefined: unknown lender. */
  secretOf(lenderId: string): Promise<string | undefined>;
  delayMs: number;
  port: number;
  host?: string;
  report?: (message: string) => void;
}

/**
 * The lender simulator: `POST /lenders/{lenderId}/applications` (signed with that lender's
 * secret) answers a reference at once; after the delay it decides by the financed amount and
 * calls the application's callbackUrl, signed: accepted up to 50,000, one required annual
 * financial statement asked up to 250,000, rejected above. A retried application (same id) is
 * decided once.
 */
export async function startLenderSimulator(options: LenderSimulatorOptions): Promise<RunningSimulator> {
  const decided = new Set<string>();
  const report = options.report ?? (() => undefined);
  return startSimulator('lender simulator', options, async (req, res, later) => {
    const match = /^\/lenders\/([^/]+)\/applications(?:\/([^/]+)\/attachments)?$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) return json(res, 404, { error: 'not found' });
    const secret = await options.secretOf(decodeURIComponent(match[1] as string));
    if (!secret) return json(res, 404, { error: 'unknown lender' });
    const body = await readBody(req);
    const message = verified(secret, body, req);
    if (!message) return json(res, 401, { error: 'invalid signature' });
    if (match[2]) return json(res, 204);
    const data = message.data as { applicationId: string; financingCaseId: string; financedAmount: number | null; callbackUrl: string };
    const reference = `SIM-${data.applicationId}`;
    json(res, 200, { reference });
    if (decided.has(data.applicationId)) return undefined;
    decided.add(data.applicationId);
    later(options.delayMs, () => {
      const amount = data.financedAmount ?? 0;
      const decision =
        amount <= ACCEPT_UP_TO
          ? { type: 'application.accepted', data: { financingCaseId: data.financingCaseId, reference, signingStatement: null } }
          : amount <= QUESTIONS_UP_TO
            ? {
                type: 'application.questions',
                data: {
                  financingCaseId: data.financingCaseId,
                  reference,
                  items: [{ type: 'document', label: 'Annual financial statement', category: 'annual_financial_statement', optional: false }],
                },
              }
            : {
                type: 'application.rejected',
                data: {
                  financingCaseId: data.financingCaseId,
                  reference,
                  reason: `The financed amount ${amount} is above this lender's limit of ${QUESTIONS_UP_TO}.`,
                },
              };
      void deliver(data.callbackUrl, secret, decision.type, decision.data, report);
    });
  });
}

export interface SigningSimulatorOptions {
  secret: string;
  delayMs: number;
  port: number;
  host?: string;
  report?: (message: string) => void;
}

/** The document the provider sends back: the contract as sent, with a page that records the signatures. */
async function signedCopy(original: Buffer, signers: { firstName: string; lastName: string; email: string }[]): Promise<Buffer> {
  const pdf = await PDFDocument.load(original);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage();
  let y = page.getHeight() - 60;
  page.drawText('Signatures (signing simulator)', { x: 50, y, size: 14, font });
  for (const signer of signers) {
    y -= 20;
    page.drawText(`Signed by ${signer.firstName} ${signer.lastName} <${signer.email}> on ${new Date().toISOString()}`.replace(/[^\x20-\x7E]/g, '?'), {
      x: 50,
      y,
      size: 10,
      font,
    });
  }
  return Buffer.from(await pdf.save());
}

/**
 * The signing simulator: `POST /envelopes` (signed with SIGNING_WEBHOOK_SECRET) answers a
 * providerEnvelopeId, sends envelope.sent at once and envelope.signed with the signed PDF after
 * the delay, to the envelope's callbackUrl. A repeated request of an envelope id answers the same
 * envelope and invites nobody again; `POST /envelopes/{envelopeId}/void` voids an envelope (it is
 * never signed then), 404 for one it never took.
 */
export async function startSigningSimulator(options: SigningSimulatorOptions): Promise<RunningSimulator> {
  const report = options.report ?? (() => undefined);
  const envelopes = new Map<string, { providerEnvelopeId: string; voided: boolean }>();
  return startSimulator('signing simulator', options, async (req, res, later) => {
    const voidOf = /^\/envelopes\/([^/]+)\/void$/.exec(req.url ?? '');
    if (req.method !== 'POST' || (req.url !== '/envelopes' && !voidOf)) return json(res, 404, { error: 'not found' });
    const message = verified(options.secret, await readBody(req), req);
    if (!message) return json(res, 401, { error: 'invalid signature' });
    if (voidOf) {
      const envelope = envelopes.get(decodeURIComponent(voidOf[1] as string));
      if (!envelope) return json(res, 404, { error: 'unknown envelope' });
      envelope.voided = true;
      return json(res, 200, { providerEnvelopeId: envelope.providerEnvelopeId, status: 'voided' });
    }
    const data = message.data as {
      envelopeId: string;
      signers: { firstName: string; lastName: string; email: string }[];
      document: { fileName: string; contentBase64: string };
      callbackUrl: string;
    };
    const known = envelopes.get(data.envelopeId);
    if (known) return json(res, 200, { providerEnvelopeId: known.providerEnvelopeId });
    const providerEnvelopeId = `SIMENV-${data.envelopeId}`;
    envelopes.set(data.envelopeId, { providerEnvelopeId, voided: false });
    json(res, 200, { providerEnvelopeId });
    void deliver(data.callbackUrl, options.secret, 'envelope.sent', { envelopeId: data.envelopeId, providerEnvelopeId }, report);
    later(options.delayMs, async () => {
      if (envelopes.get(data.envelopeId)?.voided) return;
      try {
        const signed = await signedCopy(Buffer.from(data.document.contentBase64, 'base64'), data.signers);
        await deliver(
          data.callbackUrl,
          options.secret,
          'envelope.signed',
          {
            envelopeId: data.envelopeId,
            providerEnvelopeId,
            signedDocument: { fileName: data.document.fileName.replace(/\.pdf$/i, '') + '-signed.pdf', contentBase64: signed.toString('base64') },
          },
          report,
        );
      } catch (error) {
        report(`signing simulator: ${(error as Error).message}`);
      }
    });
    return undefined;
  });
}

/**
 * The credit bureau simulator: `POST /checks` with the customer answers a check at once. The
 * outcome is `pass` for every company; the score is derived from the company's name, so the
 * same customer always gets the same score.
 */
export async function startCreditBureauSimulator(options: { port: number; host?: string }): Promise<RunningSimulator> {
  return startSimulator('credit bureau simulator', options, async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/checks') return json(res, 404, { error: 'not found' });
    let customer: { company?: string | null; vatId?: string | null } = {};
    try {
      customer = (JSON.parse(await readBody(req)) as { customer?: typeof customer }).customer ?? {};
    } catch {
      return json(res, 400, { error: 'not JSON' });
    }
    const digest = createHash('sha256')
      .update(`${customer.company ?? ''}|${customer.vatId ?? ''}`)
      .digest();
    return json(res, 200, {
      provider: 'credit-bureau-simulator',
      reference: `CB-${randomUUID()}`,
      outcome: 'pass',
      score: 600 + (digest.readUInt16BE(0) % 300),
      checkedAt: new Date().toISOString(),
    });
  });
}
