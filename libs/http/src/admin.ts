import type { Application } from 'express';
import { metricsContentType, renderMetrics } from '@rental/metrics';
import { DomainError, toProblem } from '@rental/problem';
import { createExpressApp } from './express-app';
import { sendProblem } from './problem-response';

export type ReadinessCheck = () => Promise<Record<string, boolean>>;

/**
 * Health, readiness and metrics of one process, served on its admin port (ADMIN_PORT) only:
 * probes and Prometheus reach it, partners and the public port never do.
 */
export function createAdminApp(readiness: ReadinessCheck): Application {
  const app = createExpressApp();
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = await readiness().catch(() => ({ readiness: false }));
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', metricsContentType());
    res.send(await renderMetrics());
  });
  app.use((req, res) => {
    sendProblem(res, toProblem(new DomainError('not_found', 'route.not_found', `No endpoint exists at ${req.method} ${req.path}.`)));
  });
  return app;
}
