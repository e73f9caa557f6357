import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpWebhookTransport } from './http-transport';

// Loopback only: shows that the connection goes to the checked address, whatever the name.
describe('HttpWebhookTransport', () => {
  let server: http.Server;
  let port: number;
  const seen: { host?: string; body: string; headers: http.IncomingHttpHeaders }[] = [];
  let answer: { status: number; delayMs?: number; headers?: Record<string, string> } = { status: 204 };
  const transport = new HttpWebhookTransport();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({ host: req.headers.host, body, headers: req.headers });
        setTimeout(() => res.writeHead(answer.status, answer.headers).end(), answer.delayMs ?? 0).unref();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    transport.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    seen.length = 0;
    answer = { status: 204 };
  });

  const post = (url: string, timeoutMs = 2000) =>
    transport.post({
      url: new URL(url),
      addresses: [{ address: '127.0.0.1', family: 4 }],
      headers: { 'Content-Type': 'application/json' },
      body: '{"a":1}',
      timeoutMs,
    });

  it('when the name is one no resolver knows, then the request still reaches the checked address with the name as Host', async () => {
    const result = await post(`http://hooks.partner.invalid:${port}/in?x=1`);
    expect(result).toMatchObject({ statusCode: 204 });
    expect(seen).toEqual([expect.objectContaining({ host: `hooks.partner.invalid:${port}`, body: '{"a":1}' })]);
    expect(seen[0]?.headers['content-length']).toBe('7');
  });

  it('when the answer is a redirect, then its status is returned and the Location is not followed', async () => {
    answer = { status: 302, headers: { Location: `http://127.0.0.1:${port}/elsewhere` } };
    expect(await post(`http://127.0.0.1:${port}/in`)).toMatchObject({ statusCode: 302 });
    expect(seen).toHaveLength(1);
  });

  it('when no answer comes within the timeout, then the result is a timeout error', async () => {
    answer = { status: 204, delayMs: 1500 };
    const result = await post(`http://127.0.0.1:${port}/in`, 300);
    expect(result).toEqual({ error: 'no answer within 300 ms', durationMs: expect.any(Number) });
    expect(result.durationMs).toBeGreaterThanOrEqual(299);
  });

  it('when nothing listens on the port, then the result is a connection error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await post(`http://127.0.0.1:${closedPort}/in`)).toEqual({ error: 'connection refused', durationMs: expect.any(Number) });
  });
});
