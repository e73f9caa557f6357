import { randomUUID } from 'node:crypto';
import { DomainError, conflict, notFound } from '@rental/problem';
import type { DeliveryHistory, WebhookEndpoint } from './model';
import type { EndpointStore, RedeliveryStore, SecretRotationStore, ToolBudget } from './ports';
import { findEndpoint, missingEndpoint, newSecret } from './endpoints';

export const WEBHOOK_TEST_EVENT = 'webhook_endpoint.test';
/** How long the old secret still signs after a rotation unless the partner says otherwise. */
export const DEFAULT_ROTATION_OVERLAP_SECONDS = 24 * 3600;
export const MAX_ROTATION_OVERLAP_SECONDS = 7 * 24 * 3600;

export interface EndpointToolsDependencies {
  store: EndpointStore;
  rotation: SecretRotationStore;
  redeliveries: RedeliveryStore;
  environment: string;
  /** Tells the delivery worker that something is due now. */
  onQueued: () => void;
  /** Each partner's test events and redelivery requests per minute (WEBHOOK_TEST_EVENTS_PER_MINUTE, WEBHOOK_REDELIVERIES_PER_MINUTE). */
  budgets: { testEvents: ToolBudget; redeliveries: ToolBudget };
}

/**
 * Takes one request of the partner's budget, or refuses with 429 and Retry-After: test events and
 * redeliveries queue deliveries at will, and a partner's deliveries share the slots with everyone's.
 */
async function spend(budget: ToolBudget, partnerId: string, what: string): Promise<void> {
  const decision = await budget.take(partnerId);
  if (decision.allowed) return;
  const { retryAfterSeconds } = decision;
  throw new DomainError(
    'rate_limited',
    'webhook_endpoint.tool_rate_limited',
    `Too many ${what} this minute for this partner; retry after ${retryAfterSeconds} s.`,
    { retryAfterSeconds },
  );
}

async function activeEndpoint(store: EndpointStore, partnerId: string, id: string): Promise<WebhookEndpoint> {
  const endpoint = await findEndpoint(store, partnerId, id);
  // A paused endpoint gets nothing (its deliveries are dropped at once): refuse instead of pretending.
  if (!endpoint.active) throw conflict('webhook_endpoint.paused', 'The webhook endpoint is paused; resume it (PATCH active true) first.');
  return endpoint;
}

export async function rotateSecret(
  deps: Pick<EndpointToolsDependencies, 'store' | 'rotation'>,
  partnerId: string,
  id: string,
  overlapSeconds: number,
  now: Date = new Date(),
): Promise<{ endpoint: WebhookEndpoint; secret: string; previousSecretExpiresAt: string | null }> {
  const endpoint = await findEndpoint(deps.store, partnerId, id);
  const secret = newSecret();
  const previousExpiresAt = overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null;
  // Deleted between the lookup and the update.
  if (!(await deps.rotation.rotateSecret(partnerId, id, secret, previousExpiresAt))) throw await missingEndpoint(deps.store, id);
  return { endpoint, secret, previousSecretExpiresAt: previousExpiresAt?.toISOString() ?? null };
}

export async function redeliverEvent(deps: EndpointToolsDependencies, partnerId: string, endpointId: string, eventId: string): Promise<DeliveryHistory> {
  await activeEndpoint(deps.store, partnerId, endpointId);
  await spend(deps.budgets.redeliveries, partnerId, 'redeliveries');
  const outcome = await deps.redeliveries.redeliver(partnerId, endpointId, eventId);
  if (outcome.status === 'unknown') throw notFound('webhook_delivery.not_found', `No delivery of event ${eventId} to this endpoint.`);
  if (outcome.status === 'still_pending')
    throw conflict('webhook_delivery.pending', 'This delivery is still being attempted; it can be redelivered once it succeeded or was dropped.');
  deps.onQueued();
  return outcome.delivery;
}

export async function redeliverDroppedSince(deps: EndpointToolsDependencies, partnerId: string, endpointId: string, since: Date): Promise<number> {
  await activeEndpoint(deps.store, partnerId, endpointId);
  await spend(deps.budgets.redeliveries, partnerId, 'redeliveries');
  const count = await deps.redeliveries.redeliverDroppedSince(partnerId, endpointId, since);
  if (count > 0) deps.onQueued();
  return count;
}

function testEventBody(id: string, endpointId: string, occurredAt: string): string {
  return JSON.stringify({ id, event: WEBHOOK_TEST_EVENT, occurredAt, version: 1, data: { webhookEndpointId: endpointId } });
}

export async function sendTestEvent(deps: EndpointToolsDependencies, partnerId: string, endpointId: string, now: Date = new Date()): Promise<DeliveryHistory> {
  await activeEndpoint(deps.store, partnerId, endpointId);
  await spend(deps.budgets.testEvents, partnerId, 'test events');
  const id = randomUUID();
  const occurredAt = now.toISOString();
  const body = testEventBody(id, endpointId, occurredAt);
  const delivery = await deps.redeliveries.queueTestEvent(endpointId, {
    id,
    partnerId,
    environment: deps.environment,
    occurredAt,
    body,
    event: JSON.stringify({ ...(JSON.parse(body) as object), partnerId, environment: deps.environment }),
  });
  deps.onQueued();
  return delivery;
}
