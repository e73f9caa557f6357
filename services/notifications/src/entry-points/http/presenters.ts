import type { DeliveryHistory, WebhookEndpoint } from '../../domain/model';

// The API's JSON shapes of webhook endpoints and deliveries, with their paths.

export const endpointPath = (id: string) => `/api/webhook_endpoints/${id}`;

export function presentEndpoint(endpoint: WebhookEndpoint) {
  return {
    '@id': endpointPath(endpoint.id),
    '@type': 'WebhookEndpoint' as const,
    id: endpoint.id,
    url: endpoint.url,
    active: endpoint.active,
    createdAt: endpoint.createdAt,
  };
}

export function presentDelivery(delivery: DeliveryHistory) {
  return {
    '@type': 'WebhookDelivery' as const,
    eventId: delivery.eventId,
    event: delivery.event,
    occurredAt: delivery.occurredAt,
    status: delivery.status,
    dropReason: delivery.dropReason,
    attemptCount: delivery.attemptCount,
    nextAttemptAt: delivery.nextAttemptAt,
    createdAt: delivery.createdAt,
    completedAt: delivery.completedAt,
    attempts: delivery.attempts,
  };
}
