import type { Response } from 'express';
import { type OperationSpec, OperationRouter } from '@rental/http';
import { forbidden } from '@rental/problem';
import * as use from '../../domain/operations';
import type { PortalDependencies } from '../../domain/ports';
import { type PartnerUser, type PortalRole, hasRole } from '../../domain/roles';
import {
  auditOperation,
  createEndpointOperation,
  createKeyOperation,
  deleteEndpointOperation,
  deliveriesOperation,
  getEndpointOperation,
  listEndpointsOperation,
  listKeysOperation,
  meOperation,
  redeliverOperation,
  rolesOfOperations,
  revokeKeyOperation,
  rollKeyOperation,
  rotateSecretOperation,
  testEventOperation,
  updateEndpointOperation,
} from './contract';

const userOf = (res: Response) => res.locals.user as PartnerUser;
const ok = (body: unknown) => ({ status: 200, body });
const created = (body: unknown) => ({ status: 201, body });
const accepted = (body: unknown) => ({ status: 202, body });
const pageOf = (page: number | undefined) => page ?? 1;
const keyWithSecret = ({ apiKey, key }: { apiKey: object; key: string }) => ({ ...apiKey, key });

/** The portal's API: each route takes the checked input, calls one use case, answers its result (webhooks: as /api/webhook_endpoints answers). */
export function portalRoutes(deps: PortalDependencies): OperationRouter {
  const roles = new Map<OperationSpec, PortalRole>(rolesOfOperations(deps.environment));
  // On the route that answers, before the body is read: an operation without a role is refused to everyone.
  const authorization = (spec: OperationSpec, res: Response) => {
    const role = roles.get(spec);
    if (role === undefined) throw forbidden('portal.role_required', 'This operation declares no role, so no partner user may call it.');
    if (!hasRole(userOf(res), role)) throw forbidden('portal.role_required', `This operation needs the ${role} role.`);
  };
  return new OperationRouter({ authorization })
    .handle(meOperation, async ({ res }) => ok(use.me(deps, userOf(res))))
    .handle(listKeysOperation, async ({ query, res }) => {
      const statuses = (query.status ?? '')
        .split(',')
        .map((status) => status.trim())
        .filter(Boolean);
      return ok(await use.listKeys(deps, userOf(res), statuses, pageOf(query.page)));
    })
    .handle(createKeyOperation, async ({ body, res }) =>
      created(keyWithSecret(await use.createKey(deps, userOf(res), { name: body.name, role: body.role, expiresAt: body.expiresAt ?? null }))),
    )
    .handle(rollKeyOperation, async ({ params, body, res }) => created(keyWithSecret(await use.rollKey(deps, userOf(res), params.id, body?.expiresIn))))
    .handle(revokeKeyOperation, async ({ params, res }) => ok(await use.revokeKey(deps, userOf(res), params.id)))
    .handle(auditOperation, async ({ query, res }) => ok(await use.audit(deps, userOf(res), pageOf(query.page))))
    .handle(listEndpointsOperation, async ({ query, res }) => ok(await use.webhooks(deps, userOf(res), 'ListEndpoints', { page: query.page })))
    .handle(getEndpointOperation, async ({ params, res }) => ok(await use.webhooks(deps, userOf(res), 'GetEndpoint', { endpointId: params.id })))
    .handle(deliveriesOperation, async ({ params, query, res }) =>
      ok(await use.webhooks(deps, userOf(res), 'ListDeliveries', { endpointId: params.id, page: query.page })),
    )
    .handle(testEventOperation, async ({ params, res }) => accepted(await use.webhooks(deps, userOf(res), 'SendTestEvent', { endpointId: params.id })))
    .handle(redeliverOperation, async ({ params, res }) =>
      accepted(await use.webhooks(deps, userOf(res), 'Redeliver', { endpointId: params.id, eventId: params.eventId })),
    )
    .handle(createEndpointOperation, async ({ body, res }) => {
      const endpoint = (await use.changeWebhookEndpoint(deps, userOf(res), 'CreateEndpoint', { body })) as { id: string };
      return { status: 201, body: endpoint, headers: { Location: `/portal/v1/webhook-endpoints/${endpoint.id}` } };
    })
    .handle(updateEndpointOperation, async ({ params, body, res }) =>
      ok(await use.changeWebhookEndpoint(deps, userOf(res), 'UpdateEndpoint', { endpointId: params.id, body })),
    )
    .handle(deleteEndpointOperation, async ({ params, res }) => {
      await use.changeWebhookEndpoint(deps, userOf(res), 'DeleteEndpoint', { endpointId: params.id });
      return { status: 204 };
    })
    .handle(rotateSecretOperation, async ({ params, body, res }) =>
      ok(await use.changeWebhookEndpoint(deps, userOf(res), 'RotateSecret', { endpointId: params.id, body })),
    );
}
