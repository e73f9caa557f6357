import { z } from 'zod';
import { defineOperation, pageQuery, problemResponses } from '@rental/http';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const TAGS = ['Webhook endpoints'];

const endpointParams = z.object({ id: z.string().regex(ULID).describe('ULID of the webhook endpoint') });

export const webhookEndpointSchema = z
  .object({
    '@id': z.string().describe('Path of the endpoint'),
    '@type': z.literal('WebhookEndpoint'),
    id: z.string().describe('ULID'),
    url: z.string().describe('The URL as registered'),
    active: z.boolean().describe('Whether deliveries are enabled'),
    createdAt: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'WebhookEndpoint' });

export const createdWebhookEndpointSchema = webhookEndpointSchema
  .extend({
    secret: z.string().describe('Signing secret, `whsec_` and base64 of 32 random bytes. Shown only in this response: keep it; to get a new one, delete the endpoint and register again.'),
  })
  .meta({ id: 'CreatedWebhookEndpoint' });

export const createEndpointBody = z.strictObject({
  url: z.string().describe('https URL of a publicly reachable host; resolved at registration and again before every delivery'),
  active: z.boolean().optional().describe('Default true'),
});

export const updateEndpointBody = z.strictObject({
  active: z.boolean().describe('false pauses deliveries (pending ones are dropped, not replayed on resume); true resumes'),
});

export const listWebhookEndpoints = defineOperation({
  operationId: 'listWebhookEndpoints',
  method: 'get',
  path: '/api/webhook_endpoints',
  summary: 'The partner\'s webhook endpoints',
  description: 'Oldest first. The secret is never listed.',
  tags: TAGS,
  query: pageQuery,
  responses: {
    200: { description: 'The endpoints', schema: z.array(webhookEndpointSchema) },
    ...problemResponses(400, 401, 403, 503),
  },
});

export const createWebhookEndpoint = defineOperation({
  operationId: 'createWebhookEndpoint',
  method: 'post',
  path: '/api/webhook_endpoints',
  summary: 'Register a webhook endpoint',
  description: [
    'The URL must use https and its host must resolve only to public addresses: loopback, private, link-local, carrier-grade NAT, multicast, unspecified, broadcast, reserved and IPv6 unique-local addresses (and IP literals in those ranges) are refused with 422 (`webhook.url_not_https`, `webhook.url_not_public`, `webhook.url_unresolvable`, `validation.format`).',
    'A URL the partner already registered (compared with lower-case scheme and host, without default port, trailing slash or fragment) is 409 `webhook.url_already_registered`; a 21st endpoint is 409 `webhook.endpoint_limit_reached`.',
  ].join(' '),
  tags: TAGS,
  body: { schema: createEndpointBody, required: true },
  responses: {
    201: {
      description: 'The endpoint with its secret',
      schema: createdWebhookEndpointSchema,
      headers: { Location: { description: 'Path of the endpoint', schema: z.string() } },
    },
    ...problemResponses(400, 401, 403, 409, 422, 503),
  },
});

export const getWebhookEndpoint = defineOperation({
  operationId: 'getWebhookEndpoint',
  method: 'get',
  path: '/api/webhook_endpoints/{id}',
  summary: 'A webhook endpoint',
  description: 'Another partner\'s endpoint is 403; a deleted or an unknown endpoint is 404. The secret is never shown again.',
  tags: TAGS,
  params: endpointParams,
  responses: {
    200: { description: 'The endpoint', schema: webhookEndpointSchema },
    ...problemResponses(401, 403, 404, 503),
  },
});

export const updateWebhookEndpoint = defineOperation({
  operationId: 'updateWebhookEndpoint',
  method: 'patch',
  path: '/api/webhook_endpoints/{id}',
  summary: 'Pause or resume a webhook endpoint',
  description: 'Only `active` can change; the URL and the secret cannot (delete and register again).',
  tags: TAGS,
  params: endpointParams,
  body: { schema: updateEndpointBody, required: true },
  responses: {
    200: { description: 'The endpoint', schema: webhookEndpointSchema },
    ...problemResponses(400, 401, 403, 404, 422, 503),
  },
});

export const deleteWebhookEndpoint = defineOperation({
  operationId: 'deleteWebhookEndpoint',
  method: 'delete',
  path: '/api/webhook_endpoints/{id}',
  summary: 'Delete a webhook endpoint',
  description: 'Deliveries still pending for it are dropped.',
  tags: TAGS,
  params: endpointParams,
  responses: {
    204: { description: 'Deleted' },
    ...problemResponses(401, 403, 404, 503),
  },
});

export const deliveryAttemptSchema = z
  .object({
    attempt: z.number().int().describe('1 for the first try, up to 4'),
    attemptedAt: z.string().describe('ISO 8601'),
    statusCode: z.number().int().nullable().describe('HTTP status answered; null when no answer came'),
    durationMs: z.number().int(),
    succeeded: z.boolean(),
    error: z.string().nullable().describe('Why the attempt failed, for example "HTTP 500", "redirect (302) not followed", "no answer within 5000 ms"'),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

export const deliverySchema = z
  .object({
    '@type': z.literal('WebhookDelivery'),
    eventId: z.string().describe('The event\'s id, as sent in the body and in webhook-id'),
    event: z.string().describe('financing_case.status_changed'),
    occurredAt: z.string(),
    status: z.enum(['pending', 'succeeded', 'dropped']),
    dropReason: z.enum(['retries_exhausted', 'endpoint_paused', 'endpoint_deleted']).nullable(),
    attemptCount: z.number().int(),
    nextAttemptAt: z.string().nullable().describe('When the next try is due; null once final'),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
    attempts: z.array(deliveryAttemptSchema),
  })
  .meta({ id: 'WebhookDelivery' });

export const listWebhookDeliveries = defineOperation({
  operationId: 'listWebhookDeliveries',
  method: 'get',
  path: '/api/webhook_endpoints/{id}/deliveries',
  summary: 'Recent deliveries to a webhook endpoint',
  description: 'Newest first, each with every attempt (status code, duration, error). Deliveries are kept 30 days.',
  tags: TAGS,
  params: endpointParams,
  query: pageQuery,
  responses: {
    200: { description: 'The deliveries', schema: z.array(deliverySchema) },
    ...problemResponses(400, 401, 403, 404, 503),
  },
});

export const operations = [listWebhookEndpoints, createWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint, deleteWebhookEndpoint, listWebhookDeliveries];
