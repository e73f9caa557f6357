import { TypedClient, createGrpcClient } from '@rental/grpc';
import { PAGE_SIZE } from '@rental/http';
import { apiKeyIdentityOf, loadPartnerAccessPackage } from '@rental/proto';
import type { partnerAccess } from '@rental/proto';
import type { ApiKeyView, AuditView, ChangeActor, PartnerAccessPort, PartnerSummary, PartnerWithConditions } from '../domain/partners';

type Client = InstanceType<ReturnType<typeof loadPartnerAccessPackage>['PartnerAccessService']>;

const orNull = (text: string) => text || null;

function summaryOf(partner: partnerAccess.Partner__Output): PartnerSummary {
  return {
    id: partner.id,
    name: partner.name,
    contactEmail: orNull(partner.contactEmail),
    financingPartner: orNull(partner.financingPartner),
    status: partner.status,
    activeKeys: partner.activeKeys,
    lastUsedAt: orNull(partner.lastUsedAt),
    suspendedAt: orNull(partner.suspendedAt),
    suspensionReason: orNull(partner.suspensionReason),
  };
}

function withConditions(partner: partnerAccess.Partner__Output): PartnerWithConditions {
  return { ...summaryOf(partner), conditions: partner.conditionsJson ? (JSON.parse(partner.conditionsJson) as Record<string, unknown>) : {} };
}

function keyOf(key: partnerAccess.ApiKey__Output): ApiKeyView {
  return {
    ...apiKeyIdentityOf(key),
    createdBy: { type: key.createdBy?.type ?? 'seed', id: orNull(key.createdBy?.id ?? ''), name: orNull(key.createdBy?.name ?? '') },
    lastUsedAt: orNull(key.lastUsedAt),
    expiresAt: orNull(key.expiresAt),
    revokedAt: orNull(key.revokedAt),
    revokeReason: orNull(key.revokeReason),
    status: key.status,
  };
}

function auditOf(entry: partnerAccess.AuditEntry__Output): AuditView {
  return {
    id: entry.id,
    at: entry.at,
    actor: { type: entry.actor?.type ?? '', id: entry.actor?.id ?? '', name: entry.actor?.name ?? '' },
    action: entry.action,
    target: { type: entry.target?.type ?? '', id: entry.target?.id ?? '', name: entry.target?.name ?? '' },
    reason: orNull(entry.reason),
  };
}

/** The gateway's partner access service over gRPC (GATEWAY_GRPC_ADDR). */
export class GrpcPartnerAccess implements PartnerAccessPort {
  private readonly client: TypedClient<Client>;

  constructor(address: string, deadlineMs: number) {
    this.client = new TypedClient(createGrpcClient(loadPartnerAccessPackage().PartnerAccessService, address), deadlineMs);
  }

  async list(filter: { query: string; status: string; page: number }): Promise<PartnerSummary[]> {
    return (await this.client.call('ListPartners', filter, {})).partners.map(summaryOf);
  }

  async get(partnerId: string): Promise<PartnerWithConditions> {
    return withConditions(await this.client.call('GetPartner', { partnerId }, { partnerId }));
  }

  async create(partner: Record<string, unknown>, actor: ChangeActor): Promise<PartnerWithConditions> {
    return withConditions(await this.client.call('CreatePartner', { partnerJson: JSON.stringify(partner), actor }, { partnerId: String(partner.id) }));
  }

  async updateConditions(partnerId: string, conditions: Record<string, unknown>, reason: string, actor: ChangeActor): Promise<PartnerWithConditions> {
    return withConditions(await this.client.call('UpdateConditions', { partnerId, conditionsJson: JSON.stringify(conditions), reason, actor }, { partnerId }));
  }

  async suspend(partnerId: string, reason: string, actor: ChangeActor): Promise<PartnerSummary> {
    return summaryOf(await this.client.call('SuspendPartner', { partnerId, reason, actor }, { partnerId }));
  }

  async reactivate(partnerId: string, reason: string, actor: ChangeActor): Promise<PartnerSummary> {
    return summaryOf(await this.client.call('ReactivatePartner', { partnerId, reason, actor }, { partnerId }));
  }

  async keys(partnerId: string): Promise<ApiKeyView[]> {
    // A partner has at most 10 live keys, but revoked and expired ones stay listed: read every page.
    const keys: ApiKeyView[] = [];
    for (let page = 1; ; page += 1) {
      const batch = (await this.client.call('ListApiKeys', { partnerId, page }, { partnerId })).apiKeys;
      keys.push(...batch.map(keyOf));
      if (batch.length < PAGE_SIZE) return keys;
    }
  }

  async createKey(partnerId: string, key: { name: string; role: string; expiresAt: string | null }, actor: ChangeActor): Promise<ApiKeyView & { key: string }> {
    const created = await this.client.call(
      'CreateApiKey',
      { partnerId, name: key.name, role: key.role, expiresAt: key.expiresAt ?? '', createdBy: actor },
      { partnerId },
    );
    return { ...keyOf(created.apiKey!), key: created.key };
  }

  async revokeKey(partnerId: string, keyId: string, reason: string, actor: ChangeActor): Promise<ApiKeyView> {
    return keyOf(await this.client.call('RevokeApiKey', { partnerId, keyId, reason, actor }, { partnerId }));
  }

  async audit(partnerId: string, page: number): Promise<AuditView[]> {
    return (await this.client.call('ListAudit', { partnerId, page }, { partnerId })).entries.map(auditOf);
  }

  close(): void {
    this.client.close();
  }
}
