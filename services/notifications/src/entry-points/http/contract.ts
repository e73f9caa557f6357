import { z } from 'zod';
import { operationsOn, ulid } from '@rental/http';
import { DEFAULT_ROTATION_OVERLAP_SECONDS, MAX_ROTATION_OVERLAP_SECONDS, WEBHOOK_TEST_EVENT } from '../../domain/endpoint-tools';

export { WEBHOOK_TEST_EVENT };

const TAGS = ['Webhook endpoints'];

const endpointParams = z.object({ id: ulid().describe('ULID of the webhook endpoint') });

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
    secret: z
      .string()
      .describe(
        'Signing secret, `whsec_` and base64 of 32 random bytes. Shown only in this response: keep it; to get a new one, rotate it (POST /api/webhook_endpoints/{id}/rotate-secret).',
      ),
  })
  .meta({ id: 'CreatedWebhookEndpoint' });

export const createEndpointBody = z.strictObject({
  url: z.string().describe('https URL of a publicly reachable host; resolved at registration and again before every delivery'),
  active: z.boolean().optional().describe('Default true'),
});

export const updateEndpointBody = z.strictObject({
  active: z.boolean().describe('false pauses deliveries (pending ones are dropped, not replayed on resume); true resumes'),
});

// The specification lists 403 for every webhook endpoint operation: another partner's endpoint is
// refused (403), not hidden.
const endpointCollection = operationsOn({ tags: TAGS, problems: [403], noun: 'endpoint' });
const endpoint = operationsOn({ tags: TAGS, params: endpointParams, problems: [403], noun: 'endpoint' });
// What queues a delivery to the endpoint is refused while it is paused (409 webhook_endpoint.paused).
const deliveriesTo = operationsOn({ tags: TAGS, params: endpointParams, problems: [403, 409] });

export const listWebhookEndpoints = endpointCollection.list({
  operationId: 'listWebhookEndpoints',
  path: '/api/webhook_endpoints',
  summary: "The partner's webhook endpoints",
  description: 'Oldest first. The secret is never listed.',
  items: { description: 'The endpoints', schema: webhookEndpointSchema },
});

export const createWebhookEndpoint = endpointCollection.create({
  operationId: 'createWebhookEndpoint',
  path: '/api/webhook_endpoints',
  summary: 'Register a webhook endpoint',
  description: [
    'The URL must use https and its host must resolve only to public addresses: loopback, private, link-local, carrier-grade NAT, multicast, unspecified, broadcast, reserved and IPv6 unique-local addresses (and IP literals in those ranges) are refused with 422 (`webhook.url_not_https`, `webhook.url_not_public`, `webhook.url_unresolvable`, `validation.format`).',
    'A URL the partner already registered (compared with lower-case scheme and host, without default port, trailing slash or fragment) is 409 `webhook.url_already_registered`; a 21st endpoint is 409 `webhook.endpoint_limit_reached`.',
  ].join(' '),
  body: { schema: createEndpointBody },
  returns: { description: 'The endpoint with its secret', schema: createdWebhookEndpointSchema },
  problems: [409],
});

export const getWebhookEndpoint = endpoint.read({
  operationId: 'getWebhookEndpoint',
  path: '/api/webhook_endpoints/{id}',
  summary: 'A webhook endpoint',
  description: "Another partner's endpoint is 403; a deleted or an unknown endpoint is 404. The secret is never shown again.",
  returns: { schema: webhookEndpointSchema },
});

export const updateWebhookEndpoint = endpoint.patch({
  operationId: 'updateWebhookEndpoint',
  path: '/api/webhook_endpoints/{id}',
  summary: 'Pause or resume a webhook endpoint',
  description:
    'Only `active` can change; the URL cannot (delete and register again), the secret is rotated with POST /api/webhook_endpoints/{id}/rotate-secret.',
  body: { schema: updateEndpointBody },
  returns: { 200: { description: 'The endpoint', schema: webhookEndpointSchema } },
});

export const deleteWebhookEndpoint = endpoint.delete({
  operationId: 'deleteWebhookEndpoint',
  path: '/api/webhook_endpoints/{id}',
  summary: 'Delete a webhook endpoint',
  description: 'Deliveries still pending for it are dropped.',
  returns: { 204: { description: 'Deleted' } },
});

export const deliveryAttemptSchema = z
  .object({
    attempt: z.number().int().describe('1 for the first try, up to 4; a redelivery numbers on (5, 6, …)'),
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
    eventId: z.string().describe("The event's id, as sent in the body and in webhook-id"),
    event: z.string().describe(`financing_case.status_changed, or ${WEBHOOK_TEST_EVENT} for a test event`),
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

export const listWebhookDeliveries = endpoint.list({
  operationId: 'listWebhookDeliveries',
  path: '/api/webhook_endpoints/{id}/deliveries',
  summary: 'Recent deliveries to a webhook endpoint',
  description: 'Newest first, each with every attempt (status code, duration, error). Deliveries are kept 30 days.',
  items: { description: 'The deliveries', schema: deliverySchema },
});

export const rotatedWebhookEndpointSchema = createdWebhookEndpointSchema
  .extend({
    previousSecretExpiresAt: z
      .string()
      .nullable()
      .describe('Until when (ISO 8601) the replaced secret still signs deliveries beside the new one; null when it stopped at once'),
  })
  .meta({ id: 'RotatedWebhookEndpoint' });

export const rotateSecretBody = z.strictObject({
  overlapSeconds: z
    .number()
    .int()
    .min(0)
    .max(MAX_ROTATION_OVERLAP_SECONDS)
    .default(DEFAULT_ROTATION_OVERLAP_SECONDS)
    .describe(`How long the replaced secret keeps signing, in seconds (0 to ${MAX_ROTATION_OVERLAP_SECONDS}); 0 replaces it at once`),
});

export const rotateWebhookEndpointSecret = endpoint.post({
  operationId: 'rotateWebhookEndpointSecret',
  path: '/api/webhook_endpoints/{id}/rotate-secret',
  summary: 'Rotate the signing secret of a webhook endpoint',
  description: [
    'Gives the endpoint a new secret, shown only in this response. During the overlap (`overlapSeconds`, default one day) every delivery is signed with both secrets: `webhook-signature` carries two `v1,` entries (new first), so a Standard Webhooks receiver holding either secret verifies it; `X-Webhook-Signature` holds one value and stays signed with the replaced secret until the overlap ends, then with the new one (a receiver checking it accepts either secret meanwhile).',
    'Rotating again during an overlap replaces the older secret at once: only the current and the new secret sign.',
  ].join(' '),
  body: { schema: rotateSecretBody, required: false },
  returns: { 200: { description: 'The endpoint with its new secret', schema: rotatedWebhookEndpointSchema } },
});

const deliveryParams = endpointParams.extend({ eventId: z.string().min(1).max(100).describe('The event id, as in the body and in webhook-id') });

export const redeliverWebhookEvent = deliveriesTo.post({
  operationId: 'redeliverWebhookEvent',
  path: '/api/webhook_endpoints/{id}/deliveries/{eventId}/redeliver',
  summary: 'Deliver one event to the endpoint again',
  description:
    'For a delivery that succeeded or was dropped: it is sent again like a new one (the same body and event id, first attempt now, the same retries after a failure); its attempts number on. A delivery still pending is 409 `webhook_delivery.pending`; a paused endpoint is 409 `webhook_endpoint.paused`; an event this endpoint never had is 404 `webhook_delivery.not_found`. Redelivery requests (of one event or since a time) count against one budget of the partner, 60 a minute by default: more are 429 `webhook_endpoint.tool_rate_limited` with Retry-After.',
  params: deliveryParams,
  returns: { 202: { description: 'The delivery, pending again', schema: deliverySchema } },
});

export const redeliverFailedBody = z.strictObject({
  since: z.iso.datetime({ offset: true }).describe('ISO 8601 date and time; deliveries created at or after it that were dropped are delivered again'),
});

export const redeliveredSchema = z
  .object({ redelivered: z.number().int().describe('How many dropped deliveries were queued again') })
  .meta({ id: 'WebhookRedelivery' });

export const redeliverFailedWebhookEvents = deliveriesTo.post({
  operationId: 'redeliverFailedWebhookEvents',
  path: '/api/webhook_endpoints/{id}/deliveries/redeliver',
  summary: 'Deliver every failed event since a time again',
  description:
    'Every delivery to this endpoint created at or after `since` whose status is `dropped` (retries exhausted, or dropped while the endpoint was paused or its address refused) is sent again like a new one. Deliveries kept 30 days can be redelivered. A paused endpoint is 409 `webhook_endpoint.paused`. Redelivery requests (of one event or since a time) count against one budget of the partner, 60 a minute by default: more are 429 `webhook_endpoint.tool_rate_limited` with Retry-After.',
  body: { schema: redeliverFailedBody },
  returns: { 202: { description: 'How many deliveries were queued again', schema: redeliveredSchema } },
});

export const webhookTestEventSchema = z
  .object({
    id: z.string().describe('Event id, also sent as webhook-id'),
    event: z.literal(WEBHOOK_TEST_EVENT),
    occurredAt: z.string().describe('ISO 8601, when the test was requested'),
    version: z.literal(1),
    data: z.object({ webhookEndpointId: z.string().describe('ULID of the endpoint the test was sent to') }),
  })
  .meta({ id: 'WebhookTestEvent' });

export const sendWebhookTestEvent = deliveriesTo.post({
  operationId: 'sendWebhookTestEvent',
  path: '/api/webhook_endpoints/{id}/test-event',
  summary: 'Send a test event to a webhook endpoint',
  description: `Queues a \`${WEBHOOK_TEST_EVENT}\` event for this endpoint only, signed and retried like any delivery; it changes nothing and appears in the endpoint's deliveries. A paused endpoint is 409 \`webhook_endpoint.paused\`. A partner may send 30 test events a minute by default; more are 429 \`webhook_endpoint.tool_rate_limited\` with Retry-After.`,
  returns: { 202: { description: 'The delivery of the test event', schema: deliverySchema } },
});

export const operations = [
  listWebhookEndpoints,
  createWebhookEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  rotateWebhookEndpointSecret,
  redeliverWebhookEvent,
  redeliverFailedWebhookEvents,
  sendWebhookTestEvent,
];
