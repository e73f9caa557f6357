import type { AuditEntryView, PortalDependencies, WebhookCall, WebhookReply } from './ports';
import { PartnerUser, actorOf } from './roles';

/** How long the old key keeps working after a roll unless the user says otherwise. */
export const DEFAULT_ROLL_OVERLAP_SECONDS = 86_400;

export const listKeys = (deps: PortalDependencies, user: PartnerUser, statuses: string[], page: number) => deps.access.listKeys(user.partnerId, statuses, page);

export const createKey = (deps: PortalDependencies, user: PartnerUser, input: { name: string; role: string; expiresAt: string | null }) => deps.access.createKey(user.partnerId, input, actorOf(user));

export const rollKey = (deps: PortalDependencies, user: PartnerUser, keyId: string, expiresIn: number | undefined) => deps.access.rollKey(user.partnerId, keyId, expiresIn ?? DEFAULT_ROLL_OVERLAP_SECONDS, actorOf(user));

export const revokeKey = (deps: PortalDependencies, user: PartnerUser, keyId: string) => deps.access.revokeKey(user.partnerId, keyId, actorOf(user));

export const audit = (deps: PortalDependencies, user: PartnerUser, page: number): Promise<AuditEntryView[]> => deps.access.listAudit(user.partnerId, page);

/** Reads of the webhook endpoints and the tools that change nothing of an endpoint (test events, redeliveries). */
export const webhooks = (deps: PortalDependencies, user: PartnerUser, call: WebhookCall): Promise<WebhookReply> => deps.webhooks.call(user.partnerId, call);

type EndpointAction = 'webhook_endpoint.created' | 'webhook_endpoint.updated' | 'webhook_endpoint.deleted' | 'webhook_endpoint.secret_rotated';

interface EndpointBody {
  id?: string;
  url?: string;
}

/**
 * A change of a webhook endpoint, made by the owner with its own rules, then written to the
 * partner's audit with the user who made it (after the change: no call waits on an open transaction).
 */
export async function changeWebhookEndpoint(deps: PortalDependencies, user: PartnerUser, action: EndpointAction, call: WebhookCall): Promise<WebhookReply> {
  // A deleted endpoint answers nothing: its URL, the name the audit shows, is read first.
  const before = action === 'webhook_endpoint.deleted' ? (await deps.webhooks.call(user.partnerId, { method: 'GET', path: call.path, requestId: call.requestId })).body as EndpointBody : undefined;
  const reply = await deps.webhooks.call(user.partnerId, call);
  const endpoint = (before ?? reply.body) as EndpointBody;
  const id = endpoint.id ?? call.path.split('/')[1] ?? '';
  await deps.access.recordAudit(user.partnerId, { actor: actorOf(user), action, target: { type: 'webhook_endpoint', id, name: endpoint.url ?? id } });
  return reply;
}
