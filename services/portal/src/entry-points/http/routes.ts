import type { Response } from 'express';
import { OperationRouter } from '@rental/http';
import * as use from '../../domain/operations';
import type { PortalDependencies, WebhookCall, WebhookReply } from '../../domain/ports';
import { type PartnerUser, hasRole, keyRoleOf } from '../../domain/roles';
import {
  auditOperation, createEndpointOperation, createKeyOperation, deleteEndpointOperation, deliveriesOperation, getEndpointOperation, listEndpointsOperation, listKeysOperation,
  meOperation, redeliverOperation, revokeKeyOperation, rollKeyOperation, rotateSecretOperation, testEventOperation, updateEndpointOperation,
} from './contract';

const userOf = (res: Response) => res.locals.user as PartnerUser;
const ok = (body: unknown) => ({ status: 200, body });
const created = (body: unknown) => ({ status: 201, body });
const pageOf = (page: number | undefined) => page ?? 1;
const answer = (reply: WebhookReply) => ({ status: reply.status, body: reply.body, headers: reply.headers });
const paged = (page: number | undefined): Record<string, string> => (page === undefined ? {} : { page: String(page) });
const keyWithSecret = ({ apiKey, key }: { apiKey: object; key: string }) => ({ ...apiKey, key });

/** The portal's API: each route takes the checked input, calls one use case, answers its result. */
export function portalRoutes(deps: PortalDependencies): OperationRouter {
  const webhookCall = (res: Response, requestId: string, call: Omit<WebhookCall, 'requestId'>) => use.webhooks(deps, userOf(res), { ...call, requestId }).then(answer);
  return new OperationRouter()
    .handle(meOperation, async ({ res }) => {
      const user = userOf(res);
      return ok({ ...user, environment: deps.environment, may: { manageKeys: hasRole(user, keyRoleOf(deps.environment)), manageWebhooks: hasRole(user, 'developer') } });
    })
    .handle(listKeysOperation, async ({ query, res }) => {
      const statuses = (query.status ?? '').split(',').map((status) => status.trim()).filter(Boolean);
      return ok(await use.listKeys(deps, userOf(res), statuses, pageOf(query.page)));
    })
    .handle(createKeyOperation, async ({ body, res }) => created(keyWithSecret(await use.createKey(deps, userOf(res), { name: body.name, role: body.role, expiresAt: body.expiresAt ?? null }))))
    .handle(rollKeyOperation, async ({ params, body, res }) => created(keyWithSecret(await use.rollKey(deps, userOf(res), params.id, body?.expiresIn))))
    .handle(revokeKeyOperation, async ({ params, res }) => ok(await use.revokeKey(deps, userOf(res), params.id)))
    .handle(auditOperation, async ({ query, res }) => ok(await use.audit(deps, userOf(res), pageOf(query.page))))
    .handle(listEndpointsOperation, ({ query, res, requestId }) => webhookCall(res, requestId, { method: 'GET', path: '', query: paged(query.page) }))
    .handle(getEndpointOperation, ({ params, res, requestId }) => webhookCall(res, requestId, { method: 'GET', path: `/${params.id}` }))
    .handle(deliveriesOperation, ({ params, query, res, requestId }) => webhookCall(res, requestId, { method: 'GET', path: `/${params.id}/deliveries`, query: paged(query.page) }))
    .handle(testEventOperation, ({ params, res, requestId }) => webhookCall(res, requestId, { method: 'POST', path: `/${params.id}/test-event` }))
    .handle(redeliverOperation, ({ params, res, requestId }) => webhookCall(res, requestId, { method: 'POST', path: `/${params.id}/deliveries/${encodeURIComponent(params.eventId)}/redeliver` }))
    .handle(createEndpointOperation, async ({ body, res, requestId }) => answer(await use.changeWebhookEndpoint(deps, userOf(res), 'webhook_endpoint.created', { method: 'POST', path: '', body, requestId })))
    .handle(updateEndpointOperation, async ({ params, body, res, requestId }) => answer(await use.changeWebhookEndpoint(deps, userOf(res), 'webhook_endpoint.updated', { method: 'PATCH', path: `/${params.id}`, body, requestId })))
    .handle(deleteEndpointOperation, async ({ params, res, requestId }) => answer(await use.changeWebhookEndpoint(deps, userOf(res), 'webhook_endpoint.deleted', { method: 'DELETE', path: `/${params.id}`, requestId })))
    .handle(rotateSecretOperation, async ({ params, body, res, requestId }) => answer(await use.changeWebhookEndpoint(deps, userOf(res), 'webhook_endpoint.secret_rotated', { method: 'POST', path: `/${params.id}/rotate-secret`, body, requestId })));
}
