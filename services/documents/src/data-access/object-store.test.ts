import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { createLogger } from '@rental/logger';
import { MinioObjectStore } from './object-store';

/**
 * An S3 endpoint that answers one request per connection and keeps the connection open, then
 * drops it when a second request arrives on it: what a server closing an idle kept-alive
 * connection as the client reuses it looks like, every time instead of by chance.
 */
function storageClosingReusedConnections() {
  const requests: { method: string; url: string; body: string; reused: boolean }[] = [];
  const served = new WeakSet<object>();
  const server = http.createServer((req, res) => {
    const reused = served.has(req.socket);
    served.add(req.socket);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8'), reused });
      if (reused) req.socket.destroy();
      else res.writeHead(200, { 'Content-Length': '0' }).end();
    });
  });
  return { server, requests };
}

describe('MinioObjectStore on a storage that closes kept-alive connections under the next request', () => {
  let storage: ReturnType<typeof storageClosingReusedConnections>;
  let store: MinioObjectStore;
  const sent = () => storage.requests.map(({ method, url, body, reused }) => ({ method, path: url.split('?')[0], body, reused }));

  beforeEach(async () => {
    storage = storageClosingReusedConnections();
    await new Promise<void>((resolve) => storage.server.listen(0, '127.0.0.1', resolve));
    const { port } = storage.server.address() as AddressInfo;
    store = new MinioObjectStore({
      endpoint: `http://127.0.0.1:${port}`,
      accessKey: 'test-access',
      secretKey: 'test-secret',
      region: 'us-east-1',
      bucket: 'documents',
      pathStyle: true,
      timeoutMs: 5000,
      log: createLogger('documents', 'silent'),
    });
  });

  afterEach(async () => {
    store.close();
    storage.server.closeAllConnections();
    await new Promise((resolve) => storage.server.close(resolve));
  });

  it('sends the PUT once more on a new connection when the kept-alive one is closed under it', async () => {
    const content = 'a signed contract';
    await store.put('case-1/contract.pdf', { size: content.length, mimeType: 'application/pdf', open: () => Readable.from([Buffer.from(content)]) });

    // The bucket check opens the connection, the first PUT reuses it and is dropped, the second goes out on a new one.
    expect(sent()).toEqual([
      { method: 'HEAD', path: '/documents', body: '', reused: false },
      { method: 'PUT', path: '/documents/case-1/contract.pdf', body: content, reused: true },
      { method: 'PUT', path: '/documents/case-1/contract.pdf', body: content, reused: false },
    ]);
  });

  it('sends a GET and a DELETE once more on a new connection when the kept-alive one is closed under them', async () => {
    const read = async () => text(await store.get('case-1/contract.pdf'));
    expect([await read(), await read()]).toEqual(['', '']);
    await store.remove('case-1/contract.pdf');

    // Each request after the first reuses the connection the one before opened, is dropped, and goes out again on a new one.
    const path = '/documents/case-1/contract.pdf';
    expect(sent()).toEqual([
      { method: 'GET', path, body: '', reused: false },
      { method: 'GET', path, body: '', reused: true },
      { method: 'GET', path, body: '', reused: false },
      { method: 'DELETE', path, body: '', reused: true },
      { method: 'DELETE', path, body: '', reused: false },
    ]);
  });
});
