import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per process; every lib registers its metrics here and /metrics serves it. */
export const registry = new Registry();
let defaultsCollected = false;

/**
 * prom-client's gauges of active handles, requests and resources that end in `_total`, which
 * promtool refuses for anything but a counter; the same figures by type remain (`nodejs_active_handles`, …).
 */
const MISNAMED_DEFAULTS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

export function enableProcessMetrics(service: string): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  for (const name of MISNAMED_DEFAULTS) registry.removeSingleMetric(name);
}

const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests served, by method, route template, owning service and status',
  // `service`: the process's own name in a service; in the gateway the service the call went to.
  labelNames: ['method', 'route', 'service', 'status'] as const,
  buckets: latencyBuckets,
  registers: [registry],
});

export const grpcClientDuration = new Histogram({
  name: 'grpc_client_call_duration_seconds',
  help: 'Outgoing gRPC calls, by method and resulting status code',
  labelNames: ['method', 'code'] as const,
  buckets: latencyBuckets,
  registers: [registry],
});

export const grpcServerDuration = new Histogram({
  name: 'grpc_server_call_duration_seconds',
  help: 'gRPC calls served, by method and resulting status code',
  labelNames: ['method', 'code'] as const,
  buckets: latencyBuckets,
  registers: [registry],
});

export const outboxBacklog = new Gauge({
  name: 'outbox_backlog_messages',
  help: 'Outbox rows written but not yet published to JetStream',
  registers: [registry],
});

export const outboxOldestAge = new Gauge({
  name: 'outbox_oldest_unpublished_age_seconds',
  help: 'Age of the oldest outbox row not yet published to JetStream; 0 when none waits',
  registers: [registry],
});

export const outboxPublished = new Counter({
  name: 'outbox_published_messages_total',
  help: 'Outbox rows published to JetStream',
  registers: [registry],
});

export function metricsContentType(): string {
  return registry.contentType;
}

export async function renderMetrics(): Promise<string> {
  return registry.metrics();
}

export { Counter, Gauge, Histogram };
