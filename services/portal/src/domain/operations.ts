import { API_KEY_LIMITS } from '@rental/proto';
import type { AuditEntryView, PortalDependencies, WebhookCall, WebhookOperation } from './ports';
import { PartnerUser, actorOf, hasRole, keyRoleOf } from './roles';

/** The signed-in user and what the roles allow in this deployment (the page offers only that). */
export const me = (deps: PortalDependencies, user: PartnerUser) => ({
  ...user,
  environment: deps.environment,
  may: { manageKeys: hasRole(user, keyRoleOf(deps.environment)), manageWebhooks: hasRole(user, 'developer') },
});

export const listKeys = (deps: PortalDependencies, user: PartnerUser, statuses: string[], page: number) => deps.access.listKeys(user.partnerId, statuses, page);

export const createKey = (deps: PortalDependencies, user: PartnerUser, input: { name: string; role: string; expiresAt: string | null }) =>
  deps.access.createKey(user.partnerId, input, actorOf(user));

export const rollKey = (deps: PortalDependencies, user: PartnerUser, keyId: string, expiresIn: number | undefined) =>
  deps.access.rollKey(user.partnerId, keyId, expiresIn ?? API_KEY_LIMITS.defaultRollOverlapSeconds, actorOf(user));

export const revokeKey = (deps: PortalDependencies, user: PartnerUser, keyId: string) => deps.access.revokeKey(user.partnerId, keyId, actorOf(user));

export const audit = (deps: PortalDependencies, user: PartnerUser, page: number): Promise<AuditEntryView[]> => deps.access.listAudit(user.partnerId, page);

/** Reads of the webhook endpoints and the tools that change nothing of an endpoint (test events, redeliveries). */
export const webhooks = (deps: PortalDependencies, user: PartnerUser, operation: WebhookOperation, call: WebhookCall): Promise<unknown> =>
  deps.webhooks.call(user.partnerId, operation, call);

const ACTION_OF = {
  CreateEndpoint: 'webhook_endpoint.created',
  UpdateEndpoint: 'webhook_endpoint.updated',
  DeleteEndpoint: 'webhook_endpoint.deleted',
  RotateSecret: 'webhook_endpoint.secret_rotated',
} as const;

interface EndpointBody {
  id: string;
  url: string;
}

/**
 * A change of a webhook endpoint, made by its owner with its own rules, then written to the
 * partner's audit with the user who made it (after the change: no call waits on an open transaction).
 */
export async function changeWebhookEndpoint(
  deps: PortalDependencies,
  user: PartnerUser,
  operation: keyof typeof ACTION_OF,
  call: WebhookCall,
): Promise<unknown> {
  // A deleted endpoint answers nothing: its URL, the name the audit shows, is read first.
  const before =
    operation === 'DeleteEndpoint' ? ((await deps.webhooks.call(user.partnerId, 'GetEndpoint', { endpointId: call.endpointId })) as EndpointBody) : undefined;
  const answer = await deps.webhooks.call(user.partnerId, operation, call);
  const endpoint = (before ?? answer) as EndpointBody;
  await deps.access.recordAudit(user.partnerId, {
    actor: actorOf(user),
    action: ACTION_OF[operation],
    target: { type: 'webhook_endpoint', id: endpoint.id, name: endpoint.url },
  });
  return answer;
}
