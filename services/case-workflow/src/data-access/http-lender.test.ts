import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createLogger } from '@rental/logger';
import type { Lender, LenderSubmission } from '../domain/lender/ports';
import { HttpLender } from './http-lender';
import { StandardWebhooks } from './standard-webhooks';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const submission: LenderSubmission = {
  id: 1,
  applicationId: '01J0000000000000000000000A',
  quoteId: 'Q',
  financingCaseId: 'C',
  partnerId: 'acme',
  lenderId: 'lender-a',
  attempts: 1,
};

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** The lender's intake on loopback: records what it gets and answers as told. */
async function intake(answer: (request: Received) => { status: number; body?: unknown; delayMs?: number }) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const reply = answer(request);
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(reply.body === undefined ? '' : JSON.stringify(reply.body));
      }, reply.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function lenderAt(url: string | null, timeoutMs?: number): HttpLender {
  const lender: Lender = { id: 'lender-a', name: 'Lender A', intakeUrl: url, webhookSecret: SECRET };
  return new HttpLender({
    lenders: { findLender: async (id) => (id === 'lender-a' ? lender : undefined) },
    signed: new StandardWebhooks(),
    application: async (s, lenderId) => ({
      applicationId: s.applicationId,
      financingCaseId: s.financingCaseId,
      callbackUrl: `https://api.example/lender/v1/${lenderId}/events`,
    }),
    simulatorUrl: 'http://127.0.0.1:9',
    timeoutMs,
    now: () => new Date('2026-11-23T10:00:00.000Z'),
    log: createLogger('test', 'silent'),
  });
}

describe('HttpLender', () => {
  it('when the lender answers 2xx with a reference, then the application went signed with the application id as webhook-id', async () => {
    const server = await intake(() => ({ status: 201, body: { reference: 'LA-42' } }));
    try {
      expect(await lenderAt(`${server.url}/intake/`).submit(submission)).toEqual({ reference: 'LA-42' });
      const [request] = server.received;
      expect(request!.path).toBe('/intake/applications');
      expect(request!.headers['webhook-id']).toBe(submission.applicationId);
      expect(new Webhook(SECRET).verify(request!.body, request!.headers as Record<string, string>)).toEqual({
        type: 'application.submitted',
        timestamp: '2026-11-23T10:00:00.000Z',
        data: { applicationId: submission.applicationId, financingCaseId: 'C', callbackUrl: 'https://api.example/lender/v1/lender-a/events' },
      });
    } finally {
      await server.close();
    }
  });

  it.each([
    ['a non-2xx answer', { status: 503 }, 'the lender answered 503'],
    ['no reference', { status: 200, body: {} }, 'the lender answered without a reference of 1 to 64 characters'],
    ['a reference of 65 characters', { status: 200, body: { reference: 'R'.repeat(65) } }, 'the lender answered without a reference of 1 to 64 characters'],
    ['no answer in time', { status: 200, body: { reference: 'late' }, delayMs: 2_000 }, 'the lender did not answer within the timeout'],
  ])('when the lender gives %s, then the attempt fails', async (_what, answer, message) => {
    const server = await intake(() => answer);
    try {
      await expect(lenderAt(server.url, 1_000).submit(submission)).rejects.toThrow(message);
    } finally {
      await server.close();
    }
  });

  it('when the lender is not reachable, then the attempt fails naming that', async () => {
    await expect(lenderAt('http://127.0.0.1:9').submit(submission)).rejects.toThrow(/^the lender could not be reached/);
  });

  it("when attachments are sent, then they go signed to the application's reference", async () => {
    const server = await intake(() => ({ status: 204 }));
    try {
      const attachments = {
        applicationId: submission.applicationId,
        financingCaseId: 'C',
        items: [{ id: 3, type: 'information', label: 'Employees', category: '', answer: '42' }],
      };
      await lenderAt(server.url).sendAttachments('lender-a', 'LA 42/1', attachments);
      const [request] = server.received;
      expect(request!.path).toBe('/applications/LA%2042%2F1/attachments');
      expect(new Webhook(SECRET).verify(request!.body, request!.headers as Record<string, string>)).toEqual({
        type: 'application.attachments',
        timestamp: '2026-11-23T10:00:00.000Z',
        data: attachments,
      });
      server.received.length = 0;
      const failing = await intake(() => ({ status: 500 }));
      try {
        await expect(lenderAt(failing.url).sendAttachments('lender-a', 'LA-42', attachments)).rejects.toThrow('the lender answered 500');
      } finally {
        await failing.close();
      }
    } finally {
      await server.close();
    }
  });

  it("when the lender has no intake URL, then the simulator's intake for that lender is called", async () => {
    await expect(lenderAt(null).submit(submission)).rejects.toThrow(/^the lender could not be reached/);
    const server = await intake(() => ({ status: 200, body: { reference: 'SIM-1' } }));
    try {
      const lender = new HttpLender({
        lenders: { findLender: async () => ({ id: 'lender-a', name: 'Lender A', intakeUrl: null, webhookSecret: SECRET }) },
        signed: new StandardWebhooks(),
        application: async () => ({}),
        simulatorUrl: server.url,
        now: () => new Date(),
        log: createLogger('test', 'silent'),
      });
      expect(await lender.submit(submission)).toEqual({ reference: 'SIM-1' });
      expect(server.received[0]!.path).toBe('/lenders/lender-a/applications');
    } finally {
      await server.close();
    }
  });
});
