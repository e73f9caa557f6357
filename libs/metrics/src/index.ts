import {
  Counter,
  type CounterConfiguration,
  Gauge,
  type GaugeConfiguration,
  Histogram,
  type HistogramConfiguration,
  Registry,
  collectDefaultMetrics,
} from 'prom-client';

/** One registry per process; every lib registers its metrics here and /metrics serves it. */
export const registry = new Registry();
let defaultsCollected = false;

/** A counter in the process's registry, the one /metrics serves; likewise gauge and histogram. */
export function counter<T extends string>(configuration: Omit<CounterConfiguration<T>, 'registers'>): Counter<T> {
  return new Counter({ ...configuration, registers: [registry] });
}

export function gauge<T extends string>(configuration: Omit<GaugeConfiguration<T>, 'registers'>): Gauge<T> {
  return new Gauge({ ...configuration, registers: [registry] });
}

export function histogram<T extends string>(configuration: Omit<HistogramConfiguration<T>, 'registers'>): Histogram<T> {
  return new Histogram({ ...configuration, registers: [registry] });
}

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

export const httpRequestDuration = histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests served, by method, route template, owning service and status',
  // `service`: the process's own name in a service; in the gateway the service the call went to.
  labelNames: ['method', 'route', 'service', 'status'] as const,
  buckets: latencyBuckets,
});

export const grpcClientDuration = histogram({
  name: 'grpc_client_call_duration_seconds',
  help: 'Outgoing gRPC calls, by method and resulting status code',
  labelNames: ['method', 'code'] as const,
  buckets: latencyBuckets,
});

export const grpcServerDuration = histogram({
  name: 'grpc_server_call_duration_seconds',
  help: 'gRPC calls served, by method and resulting status code',
  labelNames: ['method', 'code'] as const,
  buckets: latencyBuckets,
});

export const outboxBacklog = gauge({
  name: 'outbox_backlog_messages',
  help: 'Outbox rows written but not yet published to JetStream',
});

export const outboxOldestAge = gauge({
  name: 'outbox_oldest_unpublished_age_seconds',
  help: 'Age of the oldest outbox row not yet published to JetStream; 0 when none waits',
});

export const outboxPublished = counter({
  name: 'outbox_published_messages_total',
  help: 'Outbox rows published to JetStream',
});

export function metricsContentType(): string {
  return registry.contentType;
}

export async function renderMetrics(): Promise<string> {
  return registry.metrics();
}
