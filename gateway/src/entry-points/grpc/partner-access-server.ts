import type { CallContext, ServiceBinding } from '@rental/grpc';
import { unaryHandler } from '@rental/grpc';
import type { Logger } from '@rental/logger';
import { mapDatabaseError } from '@rental/db';
import { PAGE_SIZE } from '@rental/http';
import { DomainError, invalidInput } from '@rental/problem';
import { loadPartnerAccessPackage } from '@rental/proto';
import type { common, partnerAccess } from '@rental/proto';
import {
  type Actor,
  type ApiKeyRecord,
  type AuditEntry,
  KEY_STATUSES,
  type KeyStatus,
  type PartnerAccess,
  type PartnerRecord,
  keyStatusOf,
  roleOfKey,
} from '../../domain/partner-access';

/** Only the back office and the partner portal manage partners and keys; every other caller is refused. */
export const PARTNER_ACCESS_CALLERS = ['backoffice', 'portal'];

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : '');

const ACTOR_TYPES = ['operator', 'partner_user', 'system'];

function actorOf(actor: common.Actor__Output | null): Actor {
  if (!actor || !ACTOR_TYPES.includes(actor.type) || !actor.id || !actor.name)
    throw invalidInput('partner_access.actor_required', 'Every change names its actor (type operator, partner_user or system, id and name).');
  return { type: actor.type as Actor['type'], id: actor.id, name: actor.name };
}

function pageOf(page: number): { limit: number; offset: number } {
  return { limit: PAGE_SIZE, offset: (Math.max(page, 1) - 1) * PAGE_SIZE };
}

function partnerMessage(partner: PartnerRecord, conditions?: Record<string, unknown>): partnerAccess.Partner {
  return {
    id: partner.id,
    name: partner.name,
    contactEmail: partner.contactEmail ?? '',
    financingPartner: typeof conditions?.financingPartner === 'string' ? conditions.financingPartner : '',
    status: partner.status,
    activeKeys: partner.activeKeys,
    lastUsedAt: iso(partner.lastUsedAt),
    conditionsJson: conditions ? JSON.stringify(conditions) : '',
    suspendedAt: iso(partner.suspendedAt),
    suspensionReason: partner.suspensionReason ?? '',
  };
}

function keyMessage(key: ApiKeyRecord, now: Date): partnerAccess.ApiKey {
  return {
    id: key.id,
    name: key.name,
    environment: key.environment,
    role: roleOfKey(key.roles),
    prefix: key.prefix,
    createdAt: iso(key.createdAt),
    createdBy: key.createdBy,
    lastUsedAt: iso(key.lastUsedAt),
    expiresAt: iso(key.expiresAt),
    revokedAt: iso(key.revokedAt),
    status: keyStatusOf(key, now),
    revokeReason: key.revokeReason ?? '',
  };
}

function auditMessage(entry: AuditEntry): partnerAccess.AuditEntry {
  return { id: entry.id, at: iso(entry.at), actor: entry.actor, action: entry.action, target: entry.target, reason: entry.reason };
}

function parsedJson(text: string, field: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw invalidInput('partner_access.invalid_json', `${field} must be a JSON object.`);
}

/**
 * PartnerAccessService: adapts messages to the use cases of domain/partner-access.ts. The calling
 * service must be one that manages partners, checked before anything is read.
 */
export function partnerAccessGrpcService(access: PartnerAccess, now: () => Date, log: Logger): ServiceBinding {
  const mappers = [mapDatabaseError];
  const handler = <Request, Response>(name: string, work: (request: Request, context: CallContext) => Promise<Response>) =>
    unaryHandler<Request, Response>(name, log, mappers, async (request, context) => {
      if (!PARTNER_ACCESS_CALLERS.includes(context.caller))
        throw new DomainError('forbidden', 'partner_access.caller_refused', `${context.caller} may not manage partners.`);
      return work(request, context);
    });
  const implementation: partnerAccess.PartnerAccessServiceHandlers = {
    GetPartner: handler<partnerAccess.GetPartnerRequest__Output, partnerAccess.Partner>('GetPartner', async (request) => {
      const { partner, conditions } = await access.partnerWithConditions(request.partnerId);
      return partnerMessage(partner, conditions);
    }),
    ListPartners: handler<partnerAccess.ListPartnersRequest__Output, partnerAccess.PartnerList>('ListPartners', async (request) => {
      const partners = await access.listPartners({ query: request.query, status: request.status, ...pageOf(request.page) });
      return { partners: partners.map(({ partner, financingPartner }) => ({ ...partnerMessage(partner), financingPartner: financingPartner ?? '' })) };
    }),
    CreatePartner: handler<partnerAccess.CreatePartnerRequest__Output, partnerAccess.Partner>('CreatePartner', async (request) => {
      const { id, name, contactEmail, ...conditions } = parsedJson(request.partnerJson, 'partner_json') as {
        id: string;
        name: string;
        contactEmail: string | null;
      };
      const created = await access.createPartner({ id, name, contactEmail }, conditions, actorOf(request.actor), request.reason);
      return partnerMessage(created.partner, created.conditions);
    }),
    UpdateConditions: handler<partnerAccess.UpdateConditionsRequest__Output, partnerAccess.Partner>('UpdateConditions', async (request) => {
      const updated = await access.updateConditions(
        request.partnerId,
        parsedJson(request.conditionsJson, 'conditions_json'),
        actorOf(request.actor),
        request.reason,
      );
      return partnerMessage(updated.partner, updated.conditions);
    }),
    SuspendPartner: handler<partnerAccess.ChangePartnerStatusRequest__Output, partnerAccess.Partner>('SuspendPartner', async (request) =>
      partnerMessage(await access.suspend(request.partnerId, request.reason, actorOf(request.actor))),
    ),
    ReactivatePartner: handler<partnerAccess.ChangePartnerStatusRequest__Output, partnerAccess.Partner>('ReactivatePartner', async (request) =>
      partnerMessage(await access.reactivate(request.partnerId, request.reason, actorOf(request.actor))),
    ),
    ListApiKeys: handler<partnerAccess.ListApiKeysRequest__Output, partnerAccess.ApiKeyList>('ListApiKeys', async (request) => {
      const unknown = request.statuses.find((status) => !KEY_STATUSES.includes(status as KeyStatus));
      if (unknown !== undefined) throw invalidInput('partner_access.invalid_status', `status must be among ${KEY_STATUSES.join(', ')}.`);
      const { limit, offset } = pageOf(request.page);
      const keys = await access.listKeys(request.partnerId, request.environment, request.statuses as KeyStatus[], limit, offset);
      const at = now();
      return { apiKeys: keys.map((key) => keyMessage(key, at)) };
    }),
    CreateApiKey: handler<partnerAccess.CreateApiKeyRequest__Output, partnerAccess.CreatedApiKey>('CreateApiKey', async (request) => {
      const created = await access.createKey({
        partnerId: request.partnerId,
        environment: request.environment,
        name: request.name,
        role: request.role,
        expiresAt: request.expiresAt,
        actor: actorOf(request.createdBy),
      });
      return { apiKey: keyMessage(created.record, now()), key: created.key };
    }),
    RollApiKey: handler<partnerAccess.RollApiKeyRequest__Output, partnerAccess.CreatedApiKey>('RollApiKey', async (request) => {
      const rolled = await access.rollKey({
        partnerId: request.partnerId,
        keyId: request.keyId,
        overlapSeconds: request.overlapSeconds,
        actor: actorOf(request.actor),
      });
      return { apiKey: keyMessage(rolled.record, now()), key: rolled.key };
    }),
    RevokeApiKey: handler<partnerAccess.RevokeApiKeyRequest__Output, partnerAccess.ApiKey>('RevokeApiKey', async (request) =>
      keyMessage(await access.revokeKey({ partnerId: request.partnerId, keyId: request.keyId, reason: request.reason, actor: actorOf(request.actor) }), now()),
    ),
    ListAudit: handler<partnerAccess.ListAuditRequest__Output, partnerAccess.AuditList>('ListAudit', async (request) => {
      const { limit, offset } = pageOf(request.page);
      return { entries: (await access.listAudit(request.partnerId, limit, offset)).map(auditMessage) };
    }),
    RecordAudit: handler<partnerAccess.RecordAuditRequest__Output, partnerAccess.AuditEntry>('RecordAudit', async (request) => {
      const target = request.target;
      if (!request.action || !target || !['api_key', 'webhook_endpoint', 'partner'].includes(target.type))
        throw invalidInput('partner_access.invalid_audit', 'An audit entry needs an action and a target of type api_key, webhook_endpoint or partner.');
      const entry = await access.recordAudit({
        partnerId: request.partnerId,
        actor: actorOf(request.actor),
        action: request.action,
        target: { type: target.type as AuditEntry['target']['type'], id: target.id, name: target.name },
        reason: request.reason,
      });
      return auditMessage(entry);
    }),
  };
  return { definition: loadPartnerAccessPackage().PartnerAccessService.service, implementation: implementation as unknown as ServiceBinding['implementation'] };
}
