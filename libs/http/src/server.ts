import type { Application } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningHttpServer {
  port: number;
  server: http.Server;
  /** Stops accepting, lets in-flight requests finish within graceMs, then closes what is left. */
  close(graceMs: number): Promise<void>;
}

export async function startHttpServer(app: Application | http.RequestListener, host: string, port: number): Promise<RunningHttpServer> {
  const server = http.createServer(app as http.RequestListener);
  // Longer than the gateway's idle keep-alive, so the gateway never writes to a socket we are closing.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    server,
    close: (graceMs) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
