import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { IdentityKeys } from '@rental/identity';
import { createLogger } from '@rental/logger';
import { serviceProxy, upstreamEngine } from './proxy';
import type { UndiciEngine } from './undici-engine';

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closed(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A client request that is dropped once `dropWhen` says so; resolves when its socket closed. */
function droppedRequest(url: string, dropWhen: (request: http.ClientRequest) => void): Promise<void> {
  return new Promise((resolve) => {
    const request = http.get(url);
    request.on('error', () => undefined);
    request.on('close', () => resolve());
    dropWhen(request);
  });
}

const waitFor = async (done: () => boolean): Promise<void> => {
  const deadline = Date.now() + 5000;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('forwarding through the undici engine', () => {
  let engine: UndiciEngine;
  let upstream: http.Server;
  let gateway: http.Server;
  let gatewayUrl = '';
  /** How each upstream answer ended: finished, or closed under it by the gateway. */
  const answers: string[] = [];
  let releaseSlowAnswer: () => void = () => undefined;
  /** Settles once the service holds the slow request, so the client drops it only after it was forwarded. */
  let slowRequestHeld: Promise<void> = Promise.resolve();
  let slowRequestArrived: () => void = () => undefined;

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      res.on('close', () => answers.push(res.writableFinished ? `${req.url} finished` : `${req.url} closed before its end`));
      if (req.url === '/slow') {
        releaseSlowAnswer = () => res.end('{"late":true}');
        slowRequestArrived();
        return;
      }
      if (req.url === '/endless') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 1);
        const timer = setInterval(() => res.write(chunk), 5);
        res.on('close', () => clearInterval(timer));
        return;
      }
      res.end('{"ok":true}');
    });
    const upstreamUrl = await listen(upstream);
    engine = upstreamEngine();
    const forward = serviceProxy(upstreamUrl, engine, 5000, createLogger('engine-test', 'silent'), new IdentityKeys('k'.repeat(32)));
    gateway = http.createServer((req, res) => forward(req, res));
    gatewayUrl = await listen(gateway);
  });

  afterAll(async () => {
    await closed(gateway);
    await engine.close();
    await closed(upstream);
  });

  beforeEach(() => {
    answers.length = 0;
    slowRequestHeld = new Promise((resolve) => (slowRequestArrived = resolve));
  });

  it('when a client goes away before the service answers, then the late answer is dropped and the next request is served', async () => {
    await droppedRequest(`${gatewayUrl}/slow`, (request) => void slowRequestHeld.then(() => request.destroy()));
    releaseSlowAnswer();
    await waitFor(() => answers.length === 1);

    const next = await fetch(`${gatewayUrl}/next`);

    expect([next.status, await next.text()]).toEqual([200, '{"ok":true}']);
    expect(answers).toEqual(['/slow finished', '/next finished']);
  });

  it('when a client goes away in the middle of an answer, then the service answer is closed under it', async () => {
    await droppedRequest(`${gatewayUrl}/endless`, (request) =>
      request.on('response', (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > 256 * 1024) request.destroy();
        });
      }),
    );

    await waitFor(() => answers.length === 1);

    expect(answers).toEqual(['/endless closed before its end']);
  });
});
