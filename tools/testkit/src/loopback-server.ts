import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on loopback, on a free port, that hands on each request once its whole body has arrived. */
export async function startLoopbackServer(onRequest: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => onRequest(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** The base URL of a server that startLoopbackServer started. */
export const loopbackUrl = (server: http.Server): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
