import { IDENTITY_HEADER, IdentityKeys } from '@rental/identity';
import type { Logger } from '@rental/logger';
import { z } from 'zod';
import { createHttpApp } from './app';
import { defineOperation } from './operation';
import { OperationRouter } from './router';
import { RunningHttpServer, startHttpServer } from './server';

const TOKEN = 'Xk3v9QpLmN2bR7tYwZ5cD8fH1jK4sU6eG0aVxC-_yTo';

/** A logger that keeps every entry it is given, with its message. */
function keepingLogger(lines: Record<string, unknown>[]): Logger {
  const keep = (entry: Record<string, unknown>, msg?: string) => lines.push({ ...entry, msg });
  const logger = { info: keep, warn: keep, error: keep, debug: keep, child: () => logger };
  return logger as unknown as Logger;
}

describe('the access log of a service', () => {
  const keys = new IdentityKeys('k'.repeat(32));
  const lines: Record<string, unknown>[] = [];
  const failing = (path: string) =>
    defineOperation({
      operationId: `failing-${path}`,
      method: 'get',
      path,
      summary: 'fails',
      tags: [],
      params: z.object({ token: z.string() }),
      responses: {},
    });
  const router = new OperationRouter()
    .handle(failing('/customer/v1/quotes/{token}'), async () => {
      throw new Error('boom');
    })
    .handle(failing('/api/things/{token}'), async () => {
      throw new Error('boom');
    });
  const app = createHttpApp({ log: keepingLogger(lines), router, identity: keys });
  let server: RunningHttpServer;
  let base = '';

  beforeAll(async () => {
    server = await startHttpServer(app, '127.0.0.1', 0);
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server.close(0));

  it('when a request outside the API prefix fails, then its line names the route but not the path, which may hold a credential', async () => {
    const identity = await keys.sign({ caller: 'gateway', roles: [] });
    const response = await fetch(`${base}/customer/v1/quotes/${TOKEN}`, { headers: { [IDENTITY_HEADER]: identity } });
    const unsigned = await fetch(`${base}/c/${TOKEN}/feedback`);

    expect([response.status, unsigned.status]).toEqual([500, 401]);
    const logged = lines.filter((line) => line.msg === 'request' || line.msg === 'request without a valid signed identity refused');
    expect(logged.map((line) => [line.msg, line.route, line.path])).toEqual([
      ['request', '/customer/v1/quotes/:token', undefined],
      ['request without a valid signed identity refused', undefined, undefined],
    ]);
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it('when a request under the API prefix fails, then its line names the path with its ids', async () => {
    const identity = await keys.sign({ caller: 'gateway', partnerId: 'p-1', roles: [] });
    await fetch(`${base}/api/things/thing-7`, { headers: { [IDENTITY_HEADER]: identity } });
    expect(lines.filter((line) => line.msg === 'request').at(-1)).toEqual(
      expect.objectContaining({ path: '/api/things/thing-7', route: '/api/things/:token', status: 500 }),
    );
  });
});
