import { type Logger, inTraceOf } from '@rental/logger';
import { QueueWorker, queueWorker } from '@rental/service-host';
import { DeliveryDependencies, DeliveryJob, attemptDelivery } from '../../domain/delivery';
import { webhookAttemptDuration, webhookAttempts, webhookDeliveriesFinished, webhookDeliveryLag, webhookScheduleLag } from './metrics';

/** Room for one attempt plus the time to record it; a lease that runs out means the process died. */
const LEASE_MARGIN_MS = 30_000;

const ENDPOINT_KEY = 'endpoint:';
const PARTNER_KEY = 'partner:';

/** The in-flight counts of one kind of key, by the id after its prefix. */
function countsOf(inFlight: ReadonlyMap<string, number>, prefix: string): Map<string, number> {
  return new Map([...inFlight].filter(([key]) => key.startsWith(prefix)).map(([key, count]) => [key.slice(prefix.length), count]));
}

/**
 * The webhook slots of this process, shared: one partner may hold `partnerShare` of them (by
 * default half), one endpoint half of its partner's share. A partner's hanging endpoints leave
 * the other partners' deliveries the rest of the slots, a hanging endpoint its partner's other
 * endpoints theirs, and a fast endpoint still gets throughput.
 */
export function deliveryWorker(deps: DeliveryDependencies, options: { concurrency: number; partnerShare: number; log: Logger }): QueueWorker<DeliveryJob> {
  const log = options.log.child({ worker: 'webhook-delivery' });
  const perPartner = Math.max(1, Math.min(options.partnerShare, options.concurrency));
  const perEndpoint = Math.max(1, Math.ceil(perPartner / 2));
  return queueWorker<DeliveryJob>({
    name: 'webhook-delivery',
    concurrency: options.concurrency,
    pollMs: 500,
    log,
    keysOf: (job) => [`${ENDPOINT_KEY}${job.endpoint.id}`, `${PARTNER_KEY}${job.partnerId}`],
    claim: (limit, inFlight) =>
      deps.store.claimDue({
        limit,
        perEndpoint,
        perPartner,
        endpointsInFlight: countsOf(inFlight, ENDPOINT_KEY),
        partnersInFlight: countsOf(inFlight, PARTNER_KEY),
        leaseMs: deps.timeoutMs + LEASE_MARGIN_MS,
      }),
    nextDueAt: () => deps.store.nextDueAt(),
    process: (job) =>
      inTraceOf(job, async () => {
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
