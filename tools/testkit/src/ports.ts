import net from 'node:net';

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A SERVICE_PORT_BASE whose whole range (base .. base+49, admin ports included) is free, so stacks run side by side. */
export async function findFreePortBase(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    // Below Linux's ephemeral range (32768 and up): an outgoing connection cannot take a port of the stack after the check.
    const base = 20000 + Math.floor(Math.random() * 127) * 100;
    const checks = await Promise.all(Array.from({ length: 50 }, (_, offset) => isFree(base + offset)));
    if (checks.every(Boolean)) return base;
  }
  throw new Error('no free port range found');
}

/** A port nobody listens on now (the system picks it), for a process or server a test starts itself. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A port for a server a test stops and starts again itself (a private Postgres or NATS): the first
 * of a free range below the ephemeral ports, so no outgoing connection takes it while the server
 * is down (freePort's could be).
 */
export async function restartablePort(): Promise<number> {
  return findFreePortBase();
}
