import { z } from 'zod';
import { type OperationSpec, type ResponseSpec, defineOperation, pageOf, pageQuery, problemResponses, ulid } from '@rental/http';
import { API_KEY_LIMITS, API_KEY_ROLES, API_KEY_STATUSES, apiKeyIdentityFields } from '@rental/proto';
import { type PortalRole, keyRoleOf } from '../../domain/roles';

const TAG = 'Partner portal';
const { maxLifetimeDays: MAX_KEY_LIFETIME_DAYS, maxRollOverlapSeconds: MAX_ROLL_OVERLAP_SECONDS, defaultRollOverlapSeconds } = API_KEY_LIMITS;

const actorSchema = z
  .object({
    type: z.string().describe('partner_user, operator or seed (keys loaded from the seed file)'),
    id: z.string().nullable(),
    name: z.string().nullable(),
  })
  .meta({ id: 'PortalActor' });

export const apiKeySchema = z
  .object({
    ...apiKeyIdentityFields,
    createdBy: actorSchema,
    lastUsedAt: z.string().nullable().describe('The last authenticated request, at most 60 s behind'),
    expiresAt: z.string().nullable().describe('null: never'),
    revokedAt: z.string().nullable(),
    status: z.enum(API_KEY_STATUSES).describe('expiring: active with an expiresAt in the future'),
  })
  .meta({ id: 'PortalApiKey' });

const createdKeySchema = apiKeySchema.extend({ key: z.string().describe('The key: shown this once, never again') }).meta({ id: 'PortalCreatedApiKey' });

const auditEntrySchema = z
  .object({
    at: z.string(),
    actor: actorSchema,
    action: z
      .string()
      .describe(
        'api_key.created, api_key.rolled, api_key.revoked, webhook_endpoint.created, .updated, .deleted, .secret_rotated, partner.suspended, partner.reactivated',
      ),
    target: z.object({ type: z.enum(['api_key', 'webhook_endpoint', 'partner']), id: z.string(), name: z.string() }),
    reason: z.string().nullable(),
  })
  .meta({ id: 'PortalAuditEntry' });

const meSchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    partnerId: z.string(),
    roles: z.array(z.enum(['viewer', 'developer', 'admin'])),
    environment: z.enum(['sandbox', 'production']),
    may: z.object({ manageKeys: z.boolean(), manageWebhooks: z.boolean() }),
  })
  .meta({ id: 'PortalUser' });

const keyPath = z.object({ id: z.string().min(1).max(100).describe('API key id') });
const endpointPath = z.object({ id: ulid().describe('Webhook endpoint id') });
const deliveryPath = endpointPath.extend({ eventId: z.string().min(1).max(100).describe('Event id') });

export const keysQuery = pageQuery.extend({
  status: z
    .string()
    .max(100)
    .optional()
    .refine(
      (value) => !value || value.split(',').every((status) => (API_KEY_STATUSES as readonly string[]).includes(status.trim())),
      `status takes a comma list of ${API_KEY_STATUSES.join(', ')}`,
    )
    .describe(`A comma list of ${API_KEY_STATUSES.join(', ')}`),
});

export const newKeyBody = z
  .object({
    name: z.string().min(1).max(100),
    role: z.enum(API_KEY_ROLES),
    expiresAt: z.iso.datetime({ offset: true }).nullable().optional().describe(`In the future, at most ${MAX_KEY_LIFETIME_DAYS} days ahead; absent: never`),
  })
  .meta({ id: 'PortalNewApiKey' });

export const rollBody = z
  .object({
    expiresIn: z
      .number()
      .int()
      .min(0)
      .max(MAX_ROLL_OVERLAP_SECONDS)
      .optional()
      .describe(`Seconds the old key keeps working (0 = expires at once; default ${defaultRollOverlapSeconds})`),
  })
  .meta({ id: 'PortalRoll' });

/** Anything: the webhook operations' owner (notifications) validates bodies with its own rules. */
const ownerValidatedBody = { schema: z.unknown(), required: false };
const anyJson = z.unknown();

const authFailures = problemResponses(401, 403, 503);

/** An operation of /portal/v1 with the problems every one of them can answer and those its inputs bring. */
function portalOperation<const S extends Omit<OperationSpec, 'tags' | 'responses'> & { returns: Record<number, ResponseSpec>; problems?: number[] }>(spec: S) {
  const { returns, problems = [], ...operation } = spec;
  const inputs = [operation.params ? 404 : 0, operation.query ? 400 : 0, operation.body ? 422 : 0].filter(Boolean);
  return defineOperation({ ...operation, tags: [TAG], responses: { ...returns, ...authFailures, ...problemResponses(...inputs, ...problems) } });
}

export const meOperation = portalOperation({
  operationId: 'portal_me',
  method: 'get',
  path: '/portal/v1/me',
  summary: 'Who is signed in, and what the roles allow in this deployment',
  returns: { 200: { description: 'The user', schema: meSchema } },
});

export const listKeysOperation = portalOperation({
  operationId: 'portal_list_api_keys',
  method: 'get',
  path: '/portal/v1/api-keys',
  summary: "The partner's keys of this environment, newest first; never a key or its hash",
  query: keysQuery,
  returns: pageOf('keys', apiKeySchema),
});

export const createKeyOperation = portalOperation({
  operationId: 'portal_create_api_key',
  method: 'post',
  path: '/portal/v1/api-keys',
  summary: 'A new key, shown once',
  description: 'Role developer in a sandbox, admin in production. At most 10 keys per partner that are neither expired nor revoked (the 11th is 422).',
  body: { schema: newKeyBody },
  returns: { 201: { description: 'The key with `key`, the only time it is shown', schema: createdKeySchema } },
});

export const rollKeyOperation = portalOperation({
  operationId: 'portal_roll_api_key',
  method: 'post',
  path: '/portal/v1/api-keys/{id}/roll',
  summary: 'A new key with the same name and role; the old one expires after expiresIn seconds',
  description: 'Role developer in a sandbox, admin in production. An expired or revoked key is 422.',
  params: keyPath,
  body: { schema: rollBody, required: false },
  returns: { 201: { description: 'The new key with `key`, the only time it is shown', schema: createdKeySchema } },
});

export const revokeKeyOperation = portalOperation({
  operationId: 'portal_revoke_api_key',
  method: 'post',
  path: '/portal/v1/api-keys/{id}/revoke',
  summary: 'Revokes a key at every gateway within 2 seconds; revoking again answers it unchanged',
  description: 'Role developer in a sandbox, admin in production.',
  params: keyPath,
  returns: { 200: { description: 'The revoked key', schema: apiKeySchema } },
});

export const auditOperation = portalOperation({
  operationId: 'portal_audit',
  method: 'get',
  path: '/portal/v1/audit',
  summary: "Every change of keys, webhook endpoints and the partner's status, newest first, with who made it",
  query: pageQuery,
  returns: pageOf('the audit', auditEntrySchema),
});

const webhookAnswer = (status: number, description: string) => ({
  [status]: { description: `${description}, as /api/webhook_endpoints answers it`, schema: anyJson },
});

export const listEndpointsOperation = portalOperation({
  operationId: 'portal_list_webhook_endpoints',
  method: 'get',
  path: '/portal/v1/webhook-endpoints',
  summary: "The partner's webhook endpoints",
  query: pageQuery,
  returns: webhookAnswer(200, 'A page of endpoints'),
});

export const createEndpointOperation = portalOperation({
  operationId: 'portal_create_webhook_endpoint',
  method: 'post',
  path: '/portal/v1/webhook-endpoints',
  summary: 'Registers a webhook endpoint; its secret is shown once',
  body: ownerValidatedBody,
  returns: webhookAnswer(201, 'The endpoint with its secret'),
  problems: [409],
});

export const getEndpointOperation = portalOperation({
  operationId: 'portal_get_webhook_endpoint',
  method: 'get',
  path: '/portal/v1/webhook-endpoints/{id}',
  summary: 'One webhook endpoint',
  params: endpointPath,
  returns: webhookAnswer(200, 'The endpoint'),
});

export const updateEndpointOperation = portalOperation({
  operationId: 'portal_update_webhook_endpoint',
  method: 'patch',
  path: '/portal/v1/webhook-endpoints/{id}',
  summary: 'Pauses or resumes a webhook endpoint',
  params: endpointPath,
  body: ownerValidatedBody,
  returns: webhookAnswer(200, 'The endpoint'),
});

export const deleteEndpointOperation = portalOperation({
  operationId: 'portal_delete_webhook_endpoint',
  method: 'delete',
  path: '/portal/v1/webhook-endpoints/{id}',
  summary: 'Deletes a webhook endpoint',
  params: endpointPath,
  returns: { 204: { description: 'Deleted' } },
});

export const deliveriesOperation = portalOperation({
  operationId: 'portal_list_webhook_deliveries',
  method: 'get',
  path: '/portal/v1/webhook-endpoints/{id}/deliveries',
  summary: 'Recent deliveries of an endpoint with their attempts',
  params: endpointPath,
  query: pageQuery,
  returns: webhookAnswer(200, 'A page of deliveries'),
});

export const rotateSecretOperation = portalOperation({
  operationId: 'portal_rotate_webhook_secret',
  method: 'post',
  path: '/portal/v1/webhook-endpoints/{id}/rotate-secret',
  summary: 'A new signing secret, shown once',
  params: endpointPath,
  body: ownerValidatedBody,
  returns: webhookAnswer(200, 'The endpoint with its new secret'),
});

export const testEventOperation = portalOperation({
  operationId: 'portal_send_webhook_test_event',
  method: 'post',
  path: '/portal/v1/webhook-endpoints/{id}/test-event',
  summary: 'Sends a test event to the endpoint',
  params: endpointPath,
  returns: webhookAnswer(202, 'The queued delivery'),
  problems: [409, 429],
});

export const redeliverOperation = portalOperation({
  operationId: 'portal_redeliver_webhook_event',
  method: 'post',
  path: '/portal/v1/webhook-endpoints/{id}/deliveries/{eventId}/redeliver',
  summary: 'Delivers an event to the endpoint again',
  params: deliveryPath,
  returns: webhookAnswer(202, 'The queued delivery'),
  problems: [409, 429],
});

/**
 * Every operation with the least role it needs in a deployment of `environment`, checked before
 * the body is read and before anything is looked up.
 */
export function rolesOfOperations(environment: string): ReadonlyArray<readonly [OperationSpec, PortalRole]> {
  const keys = keyRoleOf(environment);
  return [
    [meOperation, 'viewer'],
    [listKeysOperation, 'viewer'],
    [createKeyOperation, keys],
    [rollKeyOperation, keys],
    [revokeKeyOperation, keys],
    [auditOperation, 'viewer'],
    [listEndpointsOperation, 'viewer'],
    [getEndpointOperation, 'viewer'],
    [deliveriesOperation, 'viewer'],
    [createEndpointOperation, 'developer'],
    [updateEndpointOperation, 'developer'],
    [deleteEndpointOperation, 'developer'],
    [rotateSecretOperation, 'developer'],
    [testEventOperation, 'developer'],
    [redeliverOperation, 'developer'],
  ];
}
