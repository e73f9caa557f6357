import { isDomainError } from '@rental/problem';
import type { TraceOrigin } from '@rental/logger';
import type { AddressPolicy } from './address-policy';
import { RetrySchedule, nextRetryDelayMs } from '@rental/retry-schedule';
import { RETRY_SCHEDULE } from './retry-schedule';
import { deliveryHeaders } from './signature';
import { checkTarget } from './target-check';
import type { ResolvedAddress } from './model';
import type { HostResolver } from './ports';
import { parseWebhookUrl } from './webhook-url';

export type DropReason = 'retries_exhausted' | 'endpoint_paused' | 'endpoint_deleted';

/** One due delivery, claimed by this process for the length of one attempt. */
export interface DeliveryJob extends TraceOrigin {
  deliveryId: string;
  eventId: string;
  /** Number of the attempt about to be made, from 1; redeliveries number on. */
  attempt: number;
  /** Attempts made before the latest redelivery request: the retry schedule starts again after them. */
  attemptsBeforeRedelivery: number;
  /** The exact bytes to send. */
  body: string;
  /** When this attempt fell due: the start of the scheduler's lag. */
  dueAt: Date;
  /** When the status change happened: the start of the delivery lag. */
  occurredAt: Date;
  /** The partner the endpoint belongs to: the slots are shared between partners. */
  partnerId: string;
  /** `previousSecret`: the secret a rotation replaced, while its overlap lasts. */
  endpoint: { id: string; url: string; secret: string; previousSecret?: string; active: boolean; deleted: boolean };
}

export interface AttemptRecord {
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode?: number;
  succeeded: boolean;
  error?: string;
}

export type DeliveryNext = { status: 'succeeded' } | { status: 'pending'; nextAttemptAt: Date } | { status: 'dropped'; reason: DropReason };

export interface ClaimOptions {
  limit: number;
  /** At most this many deliveries of one endpoint in flight, counting `endpointsInFlight`. */
  perEndpoint: number;
  /** At most this many deliveries of one partner in flight, counting `partnersInFlight`. */
  perPartner: number;
  /** Deliveries in flight in this process, by endpoint id. */
  endpointsInFlight: ReadonlyMap<string, number>;
  /** Deliveries in flight in this process, by partner id. */
  partnersInFlight: ReadonlyMap<string, number>;
  leaseMs: number;
}

export interface DeliveryStore {
  claimDue(options: ClaimOptions): Promise<DeliveryJob[]>;
  /** Records the attempt (when one was made) and the delivery's next state, together. */
  complete(job: DeliveryJob, attempt: AttemptRecord | undefined, next: DeliveryNext): Promise<void>;
  /** When the earliest pending delivery falls due, or undefined when none is pending. */
  nextDueAt(): Promise<Date | undefined>;
}

export interface WebhookRequest {
  url: URL;
  /** The checked addresses; the transport connects to one of these and never resolves the name again. */
  addresses: ResolvedAddress[];
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export type TransportResult = { statusCode: number; durationMs: number } | { error: string; durationMs: number };

export interface WebhookTransport {
  post(request: WebhookRequest): Promise<TransportResult>;
}

export interface DeliveryDependencies {
  store: DeliveryStore;
  transport: WebhookTransport;
  resolver: HostResolver;
  policy: AddressPolicy;
  timeoutMs: number;
  schedule?: RetrySchedule;
  now?: () => Date;
}

/** Success is a 2xx; a 3xx is a failure and never followed. */
export function judgeResponse(statusCode: number): { succeeded: boolean; error?: string } {
  if (statusCode >= 200 && statusCode < 300) return { succeeded: true };
  if (statusCode >= 300 && statusCode < 400) return { succeeded: false, error: `redirect (${statusCode}) not followed` };
  return { succeeded: false, error: `HTTP ${statusCode}` };
}

async function send(job: DeliveryJob, deps: DeliveryDependencies, startedAt: Date): Promise<Omit<AttemptRecord, 'attempt' | 'startedAt'>> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let target;
  try {
    target = parseWebhookUrl(job.endpoint.url, deps.policy);
  } catch (error) {
    // The URL was valid when registered; a stricter policy since then refuses it.
    const message = isDomainError(error) ? (error.violations?.[0]?.message ?? error.detail) : 'invalid URL';
    return { durationMs: elapsed(), succeeded: false, error: message };
  }
  // Checked again at every attempt: DNS can change after registration.
  const check = await checkTarget(target, deps.resolver, deps.policy);
  if (!check.ok) return { durationMs: elapsed(), succeeded: false, error: check.message };
  const result = await deps.transport.post({
    url: target.url,
    addresses: check.addresses,
    headers: deliveryHeaders(job.endpoint.secret, job.eventId, job.body, startedAt, job.endpoint.previousSecret),
    body: job.body,
    timeoutMs: deps.timeoutMs,
  });
  if ('error' in result) return { durationMs: result.durationMs, succeeded: false, error: result.error };
  return { durationMs: result.durationMs, statusCode: result.statusCode, ...judgeResponse(result.statusCode) };
}

/**
 * Makes one attempt of a claimed delivery and stores its outcome with the next step: done,
 * a retry at the scheduled time, or dropped. A paused or deleted endpoint gets nothing.
 */
export async function attemptDelivery(job: DeliveryJob, deps: DeliveryDependencies): Promise<{ attempt?: AttemptRecord; next: DeliveryNext }> {
  const now = deps.now ?? (() => new Date());
  if (job.endpoint.deleted || !job.endpoint.active) {
    const next: DeliveryNext = { status: 'dropped', reason: job.endpoint.deleted ? 'endpoint_deleted' : 'endpoint_paused' };
    await deps.store.complete(job, undefined, next);
    return { next };
  }
  const startedAt = now();
  const attempt: AttemptRecord = { attempt: job.attempt, startedAt, ...(await send(job, deps, startedAt)) };
  let next: DeliveryNext;
  if (attempt.succeeded) {
    next = { status: 'succeeded' };
  } else {
    const delay = nextRetryDelayMs(deps.schedule ?? RETRY_SCHEDULE, job.attempt - job.attemptsBeforeRedelivery);
    next = delay === undefined ? { status: 'dropped', reason: 'retries_exhausted' } : { status: 'pending', nextAttemptAt: new Date(now().getTime() + delay) };
  }
  await deps.store.complete(job, attempt, next);
  return { attempt, next };
}
