import type { ServiceBinding } from '@rental/grpc';
import { unaryHandler } from '@rental/grpc';
import { type OperationSpec, checkedBody, pageWindow } from '@rental/http';
import type { Logger } from '@rental/logger';
import type { notifications } from '@rental/proto';
import { loadNotificationsPackage } from '@rental/proto';
import { invalidInput } from '@rental/problem';
import { mapDatabaseError } from '@rental/service-host';
import { deliveryHistory } from '../../domain/delivery-history';
import { redeliverEvent, rotateSecret, sendTestEvent } from '../../domain/endpoint-tools';
import { deleteEndpoint, findEndpoint, registerEndpoint, setEndpointActive } from '../../domain/endpoints';
import { createWebhookEndpoint, rotateWebhookEndpointSecret, updateWebhookEndpoint } from '../http/contract';
import { presentDelivery, presentEndpoint } from '../http/presenters';
import type { NotificationsRouteDependencies } from '../http/routes';

type Request = notifications.WebhookRequest__Output;

/** The request's JSON body, checked exactly as the HTTP operation checks it. */
function bodyOf<T>(spec: OperationSpec, request: Request): T {
  let input: unknown;
  try {
    input = request.bodyJson ? JSON.parse(request.bodyJson) : undefined;
  } catch {
    throw invalidInput('request.malformed_json', 'The body is not valid JSON.');
  }
  return checkedBody(spec, input) as T;
}

const window = (request: Request) => pageWindow(request.page || 1);
const answer = (body: unknown): notifications.WebhookAnswer => ({ bodyJson: body === undefined ? '' : JSON.stringify(body) });

/**
 * /api/webhook_endpoints for the partner portal: each call runs the use case of its HTTP
 * operation with the same body checks and answers the same JSON, for the partner the caller's
 * signed identity names.
 */
export function webhookEndpointGrpcService(deps: NotificationsRouteDependencies, log: Logger): ServiceBinding {
  const mappers = [mapDatabaseError];
  const handle = (method: string, run: (request: Request, partnerId: string) => Promise<unknown>) =>
    unaryHandler<Request, notifications.WebhookAnswer>(method, log, mappers, async (request, { partnerId }) => answer(await run(request, partnerId)));
  const implementation = {
    ListEndpoints: handle('ListEndpoints', async (request, partnerId) => {
      const { limit, offset } = window(request);
      return (await deps.store.list(partnerId, limit, offset)).map(presentEndpoint);
    }),
    CreateEndpoint: handle('CreateEndpoint', async (request, partnerId) => {
      const endpoint = await registerEndpoint(partnerId, bodyOf(createWebhookEndpoint, request), deps);
      return { ...presentEndpoint(endpoint), secret: endpoint.secret };
    }),
    GetEndpoint: handle('GetEndpoint', async (request, partnerId) => presentEndpoint(await findEndpoint(deps.store, partnerId, request.endpointId))),
    UpdateEndpoint: handle('UpdateEndpoint', async (request, partnerId) => {
      const { active } = bodyOf<{ active: boolean }>(updateWebhookEndpoint, request);
      return presentEndpoint(await setEndpointActive(deps.store, partnerId, request.endpointId, active));
    }),
    DeleteEndpoint: handle('DeleteEndpoint', async (request, partnerId) => {
      await deleteEndpoint(deps.store, partnerId, request.endpointId);
      return undefined;
    }),
    ListDeliveries: handle('ListDeliveries', async (request, partnerId) =>
      (await deliveryHistory({ endpoints: deps.store, history: deps.history }, partnerId, request.endpointId, window(request))).map(presentDelivery),
    ),
    RotateSecret: handle('RotateSecret', async (request, partnerId) => {
      const { overlapSeconds } = bodyOf<{ overlapSeconds: number }>(rotateWebhookEndpointSecret, request);
      const rotated = await rotateSecret(deps, partnerId, request.endpointId, overlapSeconds);
      return { ...presentEndpoint(rotated.endpoint), secret: rotated.secret, previousSecretExpiresAt: rotated.previousSecretExpiresAt };
    }),
    SendTestEvent: handle('SendTestEvent', async (request, partnerId) => presentDelivery(await sendTestEvent(deps, partnerId, request.endpointId))),
    Redeliver: handle('Redeliver', async (request, partnerId) => presentDelivery(await redeliverEvent(deps, partnerId, request.endpointId, request.eventId))),
  };
  return { definition: loadNotificationsPackage().WebhookEndpointService.service, implementation };
}
