import fs from 'node:fs';
import { z } from 'zod';
import { operations as cartCheckoutOperations } from '@rental/cart-checkout/contract';
import { operations as caseWorkflowOperations } from '@rental/case-workflow/contract';
import { operations as documentsOperations } from '@rental/documents/contract';
import { type OperationSpec, PAGE_SIZE, buildOpenApiDocument, pathTemplatesOf, problemResponses, rateLimitedResponse } from '@rental/http';
import { WEBHOOK_TEST_EVENT, operations as notificationsOperations, webhookTestEventSchema } from '@rental/notifications/contract';
import { operations as pricingOperations } from '@rental/pricing/contract';
import { STATUS_CHANGED_EVENT, statusChangedWebhookBody } from '@rental/proto';
import { type Route, routeOf } from '../../domain/route-table';
import { gatewayOperations } from './contract';

/**
 * The calendar build tag of this gateway: API_BUILD_TAG when the image sets it, else the day
 * the gateway was built.
 */
export function buildTag(configured: string | undefined): string {
  if (configured) return configured;
  const built = fs.statSync(__filename).mtime;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${built.getUTCFullYear()}.${pad(built.getUTCMonth() + 1)}.${pad(built.getUTCDate())}`;
}

const DESCRIPTION = [
  "Price equipment, check out carts into financing cases, follow them through the lender's review, exchange documents, start e-signatures and receive status webhooks.",
  '',
  'Every request carries `X-Api-Key` (sandbox and production keys are separate). Errors are `application/problem+json` with `type` (the URL of a page that explains the problem and how to fix it; `/problems` lists them all), `title`, `status`, `detail` and `instance` (`urn:request:<request id>`); every 422 adds `violations` (`propertyPath`, `message`, `code`). Collections are JSON arrays paged with `page` (1-based, ' +
    PAGE_SIZE +
    ' items per page). Every response carries `X-Request-Id`. Too many requests for one key or address answer 429 with `Retry-After`. Deprecated behaviour answers with `Deprecation`, `Sunset` and `Link` (and `X-Deprecated-Fields` for retired fields).',
].join('\n');

/**
 * What the gateway answers by itself on any operation: 429 when a key or an address exceeds its
 * rate limit, 503 when the owning service does not answer, 413 when a body is larger than the
 * gateway (MAX_BODY_BYTES) or the service (1 MB of JSON) accepts.
 */
const gatewayResponses = {
  keyed: {
    ...rateLimitedResponse('Too many requests for this API key or client address'),
    ...problemResponses(503),
  },
  withBody: problemResponses(413),
};

/** Sent with every delivery; docs/webhooks.md shows how to verify the signatures. */
const deliveryHeaders = {
  'X-Webhook-Signature': {
    description: 'Base64 HMAC-SHA256 of the raw request body, keyed with the endpoint secret string as shown (`whsec_` included)',
    schema: z.string(),
    required: true,
  },
  'webhook-id': { description: 'Standard Webhooks: the event id, the same on every retry; drop duplicates by it', schema: z.string(), required: true },
  'webhook-timestamp': { description: 'Standard Webhooks: Unix seconds when the attempt was signed', schema: z.string().regex(/^\d+$/), required: true },
  'webhook-signature': {
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "webhook-id.webhook-timestamp.body">`, keyed with the base64-decoded part of the secret after `whsec_`; space-separated entries, one per secret during a rotation\'s overlap',
    schema: z.string(),
    required: true,
  },
  traceparent: {
    description:
      "W3C Trace Context (`00-<trace id>-<parent id>-<flags>`) of the change the event reports: the trace id of the partner's own traceparent when its request caused it; quote the trace id when you ask about a delivery",
    schema: z.string().regex(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/),
    required: true,
  },
};

/** The operations each owner declares, in the order the description lists them. */
const OPERATIONS_BY_OWNER: ReadonlyArray<readonly [Route['owner'], readonly OperationSpec[]]> = [
  ['pricing', pricingOperations],
  ['cart-checkout', cartCheckoutOperations],
  ['case-workflow', caseWorkflowOperations],
  ['documents', documentsOperations],
  ['notifications', notificationsOperations],
  ['gateway', gatewayOperations],
];

const describeRoute = (route: Route) => (route.owner === 'gateway' || route.key === 'api_key' ? route.owner : `${route.owner} without a key`);

/**
 * Every described operation, each checked against the route table: a path the gateway would
 * send to another owner, or take without the key the operation needs, stops the build here.
 */
function describedOperations(): OperationSpec[] {
  return OPERATIONS_BY_OWNER.flatMap(([owner, operations]) =>
    operations.map((operation) => {
      const route = routeOf(operation.path);
      const routed = route?.owner === owner && (route.owner === 'gateway' || route.key === 'api_key');
      if (!routed)
        throw new Error(
          `${operation.operationId} (${operation.path}) is described for ${owner}, but the route table gives it to ${route ? describeRoute(route) : 'no one'}.`,
        );
      return operation;
    }),
  );
}

/**
 * The path templates of every described operation, in the description's order: what the gateway
 * matches requests against, without building the description (its start would pay for it).
 */
export function describedPaths(): string[] {
  return pathTemplatesOf(describedOperations());
}

/** The machine-readable description, generated from the operations every service declares. */
export function apiDescription(version: string): Record<string, unknown> {
  return buildOpenApiDocument({
    title: 'Partner Rental API',
    version,
    description: DESCRIPTION,
    contact: { name: 'Partner integrations', email: 'partner-integrations@partner-rental.example' },
    operations: describedOperations(),
    publicOperationIds: gatewayOperations.map((operation) => operation.operationId),
    gatewayResponses,
    webhooks: {
      [STATUS_CHANGED_EVENT]: {
        summary: 'A financing case changed status',
        description: [
          'POSTed to every active webhook endpoint of the partner. A 2xx within 5 seconds is success; otherwise up to 3 retries follow after 2, 4 and 8 seconds, then the event is dropped. Redirects are not followed. Events can arrive more than once and out of order.',
          '',
          'Every delivery is signed twice over the exact body bytes; verify either before parsing the JSON. `X-Webhook-Signature` is the base64 HMAC-SHA256 of the body keyed with the endpoint secret as shown (during the overlap of a secret rotation: with the replaced secret). The [Standard Webhooks](https://www.standardwebhooks.com/) headers `webhook-id`, `webhook-timestamp` and `webhook-signature` are verified by any Standard Webhooks library, for example `new Webhook(secret).verify(rawBody, headers)` of the `standardwebhooks` npm package, which also refuses timestamps more than 5 minutes away.',
        ].join('\n'),
        body: statusChangedWebhookBody,
        headers: deliveryHeaders,
        responses: { '2XX': { description: 'Received; any 2xx within 5 seconds' } },
      },
      [WEBHOOK_TEST_EVENT]: {
        summary: 'A test event the partner asked for',
        description:
          'POSTed to one endpoint only, on POST /api/webhook_endpoints/{id}/test-event; signed and retried like every delivery. It changes nothing: answer 2xx to show the endpoint works.',
        body: webhookTestEventSchema,
        headers: deliveryHeaders,
        responses: { '2XX': { description: 'Received; any 2xx within 5 seconds' } },
      },
    },
  });
}
