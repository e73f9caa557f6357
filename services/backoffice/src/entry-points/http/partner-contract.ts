import { z } from 'zod';
import { boundedText } from '@rental/problem';
import { pageOf, pageQuery } from '@rental/http';
import { API_KEY_ROLES, API_KEY_STATUSES, apiKeyIdentityFields, newPartnerSchema, partnerConditionsFields } from '@rental/proto';
import { opsOperation, reasonedMoves } from './ops-operation';

// Partners in the back office (issue 29, PARTNER-PORTAL.md section 5).

const partnerPath = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,99}$/)
    .describe('Partner id'),
});
const keyPath = partnerPath.extend({
  keyId: z
    .string()
    .regex(/^key_[0-9A-Za-z]{20,40}$/)
    .describe('API key id'),
});
const reasonBody = z.object({ reason: boundedText(1000) }).meta({ id: 'OpsPartnerReason' });

export const partnersQuery = pageQuery.extend({
  q: z.string().max(200).optional().describe("Part of the partner's id or name"),
  status: z.enum(['active', 'suspended']).optional(),
});

export const partnerSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    contactEmail: z.string().nullable(),
    financingPartner: z.string().nullable(),
    status: z.enum(['active', 'suspended']),
    activeKeys: z.number().int().describe('Keys of this environment neither expired nor revoked'),
    lastUsedAt: z.string().nullable().describe('Latest use of any of its keys (at most a minute behind)'),
    suspendedAt: z.string().nullable(),
    suspensionReason: z.string().nullable(),
  })
  .meta({ id: 'OpsPartner' });

export const apiKeySchema = z
  .object({
    ...apiKeyIdentityFields,
    createdBy: z.object({ type: z.enum(['partner_user', 'operator', 'seed']), id: z.string().nullable(), name: z.string().nullable() }),
    lastUsedAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    revokeReason: z.string().nullable(),
    status: z.enum(API_KEY_STATUSES),
  })
  .meta({ id: 'OpsApiKey' });

const conditionsSchema = z.object(partnerConditionsFields).meta({ id: 'OpsPartnerConditions' });

export const partnerDetailSchema = partnerSummarySchema
  .extend({
    conditions: conditionsSchema.describe('As the seed file gives them'),
    apiKeys: z.array(apiKeySchema),
  })
  .meta({ id: 'OpsPartnerDetail' });

export const conditionsBody = z
  .object({ ...partnerConditionsFields, reason: boundedText(1000).optional().describe('Kept in the audit') })
  .strict()
  .meta({ id: 'OpsPartnerConditionsChange' });

export const newKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    role: z.enum(API_KEY_ROLES),
    expiresAt: z.iso.datetime({ offset: true }).optional().describe('In the future, at most 366 days ahead; absent: never'),
  })
  .strict()
  .meta({ id: 'OpsNewApiKey' });

const auditSchema = z
  .object({
    id: z.string(),
    at: z.string(),
    actor: z.object({ type: z.string(), id: z.string(), name: z.string() }),
    action: z.string(),
    target: z.object({ type: z.string(), id: z.string(), name: z.string() }),
    reason: z.string().nullable(),
  })
  .meta({ id: 'OpsPartnerAuditEntry' });

export const listPartnersOperation = opsOperation({
  role: 'viewer',
  operationId: 'ops_list_partners',
  method: 'get',
  path: '/ops/v1/partners',
  summary: 'Partners with their status, live keys and last use',
  description: 'Ordered by id; `q` matches part of the id or name.',
  query: partnersQuery,
  returns: pageOf('partners', partnerSummarySchema),
});

export const partnerOperation = opsOperation({
  role: 'viewer',
  operationId: 'ops_get_partner',
  method: 'get',
  path: '/ops/v1/partners/{id}',
  summary: "A partner with its conditions and its keys' representations (never a key)",
  params: partnerPath,
  returns: { 200: { description: 'The partner', schema: partnerDetailSchema } },
});

export const createPartnerOperation = opsOperation({
  role: 'approver',
  operationId: 'ops_create_partner',
  method: 'post',
  path: '/ops/v1/partners',
  summary: "A new partner from the seed file's partner shape without apiKeys and users",
  description:
    'Validated as `npm run seed` validates a partner; an unknown lender, hub or sector is 422 naming the field; an existing id is 409; nothing is written on a refusal. Its first estimate prices with these conditions.',
  body: { schema: newPartnerSchema.meta({ id: 'OpsNewPartner' }) },
  returns: { 201: { description: 'The partner', schema: partnerDetailSchema } },
  problems: [409, 503],
});

export const conditionsOperation = opsOperation({
  role: 'approver',
  operationId: 'ops_replace_partner_conditions',
  method: 'put',
  path: '/ops/v1/partners/{id}/conditions',
  summary: "Replaces the partner's conditions",
  description:
    'Every pricing replica prices with them from the next request; quotes already made keep their frozen factor. Audited with the operator and the reason.',
  params: partnerPath,
  body: { schema: conditionsBody },
  returns: { 200: { description: 'The partner with its new conditions', schema: partnerDetailSchema } },
  problems: [503],
});

/** The moves of the partner's status, answered with the partner as it now stands. */
const statusMove = reasonedMoves({ params: partnerPath, reason: reasonBody, answer: { 200: { description: 'The partner', schema: partnerSummarySchema } } });

export const suspendOperation = statusMove({
  operationId: 'ops_suspend_partner',
  path: '/ops/v1/partners/{id}/suspend',
  summary: 'Stops every key of the partner at the gateway (401 partner.suspended within 2 s)',
  description: 'Its portal users still sign in and read; webhooks and mails continue. A suspended partner is 422.',
});

export const reactivateOperation = statusMove({
  operationId: 'ops_reactivate_partner',
  path: '/ops/v1/partners/{id}/reactivate',
  summary: "The partner's keys work again",
  description: 'An active partner is 422.',
});

export const createKeyOperation = opsOperation({
  role: 'approver',
  operationId: 'ops_create_partner_api_key',
  method: 'post',
  path: '/ops/v1/partners/{id}/api-keys',
  summary: 'A key for the partner (its first, for onboarding), shown once',
  description: "As the portal's creation: at most 10 live keys; createdBy is the operator; the key is in `key` only in this answer.",
  params: partnerPath,
  body: { schema: newKeyBody },
  returns: { 201: { description: "The key's representation and the key", schema: apiKeySchema.extend({ key: z.string() }).meta({ id: 'OpsCreatedApiKey' }) } },
});

export const revokeKeyOperation = opsOperation({
  role: 'approver',
  operationId: 'ops_revoke_partner_api_key',
  method: 'post',
  path: '/ops/v1/partners/{id}/api-keys/{keyId}/revoke',
  summary: 'Revokes a key (for a key found leaked): 401 api_key.revoked at every gateway within 2 s',
  description: 'Audited with the operator and the reason; a key of another partner is 404; revoking again answers the key unchanged.',
  params: keyPath,
  body: { schema: reasonBody },
  returns: { 200: { description: 'The revoked key', schema: apiKeySchema } },
});

export const partnerAuditOperation = opsOperation({
  role: 'viewer',
  operationId: 'ops_partner_audit',
  method: 'get',
  path: '/ops/v1/partners/{id}/audit',
  summary: "Every change of the partner's access and conditions, newest first",
  description: "The same entries the partner's portal audit shows, with actor and reason.",
  params: partnerPath,
  query: pageQuery,
  returns: pageOf('the audit', auditSchema),
});

export const partnerOperations = [
  listPartnersOperation,
  partnerOperation,
  partnerAuditOperation,
  createPartnerOperation,
  conditionsOperation,
  suspendOperation,
  reactivateOperation,
  createKeyOperation,
  revokeKeyOperation,
];
