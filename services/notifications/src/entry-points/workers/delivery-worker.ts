import { type Logger, inTraceOf } from '@rental/logger';
import { QueueWorker, queueWorker } from '@rental/service-host';
import { DeliveryDependencies, DeliveryJob, attemptDelivery } from '../../domain/delivery';
import { webhookAttemptDuration, webhookAttempts, webhookDeliveriesFinished, webhookDeliveryLag, webhookScheduleLag } from './metrics';

/** Room for one attempt plus the time to record it; a lease that runs out means the process died. */
const LEASE_MARGIN_MS = 30_000;

export function deliveryWorker(deps: DeliveryDependencies, options: { concurrency: number; log: Logger }): QueueWorker<DeliveryJob> {
  const log = options.log.child({ worker: 'webhook-delivery' });
  // One endpoint may use half the slots: a slow or hanging one never holds up the rest, a fast one still gets throughput.
  const perEndpoint = Math.max(1, Math.ceil(options.concurrency / 2));
  return queueWorker<DeliveryJob>({
    name: 'webhook-delivery',
    concurrency: options.concurrency,
    pollMs: 500,
    log,
    keyOf: (job) => job.endpoint.id,
    claim: (limit, inFlight) => deps.store.claimDue({ limit, perEndpoint, inFlight, leaseMs: deps.timeoutMs + LEASE_MARGIN_MS }),
    nextDueAt: () => deps.store.nextDueAt(),
    process: (job) => inTraceOf(job, async () => {
      webhookScheduleLag.observe(Math.max(0, Date.now() - job.dueAt.getTime()) / 1000);
      const { attempt, next } = await attemptDelivery(job, deps);
      const entry = {
        eventId: job.eventId,
        endpointId: job.endpoint.id,
        attempt: job.attempt,
        statusCode: attempt?.statusCode,
        durationMs: attempt?.durationMs,
        error: attempt?.error,
        next: next.status,
        ...(next.status === 'dropped' ? { reason: next.reason } : {}),
        ...(next.status === 'pending' ? { nextAttemptAt: next.nextAttemptAt.toISOString() } : {}),
      };
      if (attempt) {
        webhookAttempts.inc({ outcome: attempt.succeeded ? 'succeeded' : 'failed' });
        webhookAttemptDuration.observe(attempt.durationMs / 1000);
        if (attempt.succeeded) webhookDeliveryLag.observe((Date.now() - job.occurredAt.getTime()) / 1000);
      }
      if (next.status !== 'pending') webhookDeliveriesFinished.inc({ status: next.status, reason: next.status === 'dropped' ? next.reason : '' });
      if (attempt?.succeeded) log.info(entry, 'webhook delivered');
      else if (next.status === 'dropped') log.warn(entry, 'webhook delivery dropped');
      else log.info(entry, 'webhook attempt failed; retry scheduled');
    }),
  });
}
