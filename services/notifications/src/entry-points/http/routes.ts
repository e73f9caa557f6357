import { OperationRouter, pageWindow } from '@rental/http';
import { deliveryHistory } from '../../domain/delivery-history';
import type { DeliveryHistoryReader } from '../../domain/ports';
import { EndpointToolsDependencies, redeliverDroppedSince, redeliverEvent, rotateSecret, sendTestEvent } from '../../domain/endpoint-tools';
import { EndpointDependencies, deleteEndpoint, findEndpoint, registerEndpoint, setEndpointActive } from '../../domain/endpoints';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverFailedWebhookEvents,
  redeliverWebhookEvent,
  rotateWebhookEndpointSecret,
  sendWebhookTestEvent,
  updateWebhookEndpoint,
} from './contract';
import { endpointPath, presentDelivery, presentEndpoint } from './presenters';

export type NotificationsRouteDependencies = EndpointDependencies & EndpointToolsDependencies & { history: DeliveryHistoryReader };

export function notificationsRoutes(deps: NotificationsRouteDependencies): OperationRouter {
  return new OperationRouter()
    .handle(listWebhookEndpoints, async ({ partner, query }) => {
      const { limit, offset } = pageWindow(query.page);
      const endpoints = await deps.store.list(partner.id, limit, offset);
      return { status: 200, body: endpoints.map(presentEndpoint) };
    })
    .handle(createWebhookEndpoint, async ({ partner, body }) => {
      const endpoint = await registerEndpoint(partner.id, body, deps);
      // The only response that ever carries the secret.
      return { status: 201, body: { ...presentEndpoint(endpoint), secret: endpoint.secret }, headers: { Location: endpointPath(endpoint.id) } };
    })
    .handle(getWebhookEndpoint, async ({ partner, params }) => {
      return { status: 200, body: presentEndpoint(await findEndpoint(deps.store, partner.id, params.id)) };
    })
    .handle(updateWebhookEndpoint, async ({ partner, params, body }) => {
      return { status: 200, body: presentEndpoint(await setEndpointActive(deps.store, partner.id, params.id, body.active)) };
    })
    .handle(deleteWebhookEndpoint, async ({ partner, params }) => {
      await deleteEndpoint(deps.store, partner.id, params.id);
      return { status: 204 };
    })
    .handle(listWebhookDeliveries, async ({ partner, params, query }) => {
      const deliveries = await deliveryHistory({ endpoints: deps.store, history: deps.history }, partner.id, params.id, pageWindow(query.page));
      return { status: 200, body: deliveries.map(presentDelivery) };
    })
    .handle(rotateWebhookEndpointSecret, async ({ partner, params, body }) => {
      const rotated = await rotateSecret(deps, partner.id, params.id, body.overlapSeconds);
      // Besides the create response, the only one that carries a secret.
      return { status: 200, body: { ...presentEndpoint(rotated.endpoint), secret: rotated.secret, previousSecretExpiresAt: rotated.previousSecretExpiresAt } };
    })
    .handle(redeliverWebhookEvent, async ({ partner, params }) => {
      return { status: 202, body: presentDelivery(await redeliverEvent(deps, partner.id, params.id, params.eventId)) };
    })
    .handle(redeliverFailedWebhookEvents, async ({ partner, params, body }) => {
      return { status: 202, body: { redelivered: await redeliverDroppedSince(deps, partner.id, params.id, new Date(body.since)) } };
    })
    .handle(sendWebhookTestEvent, async ({ partner, params }) => {
      return { status: 202, body: presentDelivery(await sendTestEvent(deps, partner.id, params.id)) };
    });
}
