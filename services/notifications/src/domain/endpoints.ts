import { randomBytes } from 'node:crypto';
import { ulid } from '@rental/ids';
import { conflict, forbidden, notFound, validationFailed, violation } from '@rental/problem';
import type { AddressPolicy } from './address-policy';
import { checkTarget } from './target-check';
import type { EndpointStore, HostResolver } from './ports';
import { parseWebhookUrl } from './webhook-url';
import type { WebhookEndpoint, NewEndpoint } from './model';

export const MAX_ENDPOINTS_PER_PARTNER = 20;
const SECRET_BYTES = 32;

export interface EndpointDependencies {
  store: EndpointStore;
  resolver: HostResolver;
  policy: AddressPolicy;
}

/**
 * A signing secret in the Standard Webhooks form: `whsec_` and the base64 of 32 random bytes,
 * so stock Standard Webhooks libraries accept it as it is.
 */
export function newSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** Another partner's endpoint is 403 (authentication rule 4); only an unknown one is 404. */
export async function missingEndpoint(store: EndpointStore, id: string): Promise<Error> {
  if (await store.ownerOf(id)) return forbidden('webhook_endpoint.forbidden', 'The webhook endpoint belongs to another partner.');
  return notFound('webhook_endpoint.not_found', `No webhook endpoint ${id}.`);
}

export async function registerEndpoint(partnerId: string, input: { url: string; active?: boolean }, deps: EndpointDependencies): Promise<NewEndpoint> {
  const target = parseWebhookUrl(input.url, deps.policy);
  const check = await checkTarget(target, deps.resolver, deps.policy);
  if (!check.ok) throw validationFailed([violation('url', check.code, check.message)]);
  const now = new Date().toISOString();
  const endpoint: NewEndpoint = {
    id: ulid(),
    partnerId,
    url: input.url,
    normalizedUrl: target.normalized,
    secret: newSecret(),
    active: input.active ?? true,
    createdAt: now,
  };
  const outcome = await deps.store.create(endpoint, MAX_ENDPOINTS_PER_PARTNER);
  if (outcome === 'duplicate') throw conflict('webhook.url_already_registered', 'This URL is already registered as a webhook endpoint.');
  if (outcome === 'limit_reached')
    throw conflict('webhook.endpoint_limit_reached', `A partner can register at most ${MAX_ENDPOINTS_PER_PARTNER} webhook endpoints.`);
  return endpoint;
}

export async function findEndpoint(store: EndpointStore, partnerId: string, id: string): Promise<WebhookEndpoint> {
  const endpoint = await store.find(partnerId, id);
  if (!endpoint) throw await missingEndpoint(store, id);
  return endpoint;
}

export async function setEndpointActive(store: EndpointStore, partnerId: string, id: string, active: boolean): Promise<WebhookEndpoint> {
  const endpoint = await store.setActive(partnerId, id, active);
  if (!endpoint) throw await missingEndpoint(store, id);
  return endpoint;
}

export async function deleteEndpoint(store: EndpointStore, partnerId: string, id: string): Promise<void> {
  if (!(await store.delete(partnerId, id))) throw await missingEndpoint(store, id);
}
