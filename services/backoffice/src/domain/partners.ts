import type { ApiKeyIdentity } from '@rental/proto';
import type { Operator } from './model';
import { actorOf } from './roles';

/** A key as the back office shows it: its representation, never the key or its hash. */
export interface ApiKeyView extends ApiKeyIdentity {
  createdBy: { type: string; id: string | null; name: string | null };
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  revokeReason: string | null;
  status: string;
}

export interface PartnerSummary {
  id: string;
  name: string;
  contactEmail: string | null;
  financingPartner: string | null;
  status: string;
  activeKeys: number;
  lastUsedAt: string | null;
  suspendedAt: string | null;
  suspensionReason: string | null;
}

export interface PartnerWithConditions extends PartnerSummary {
  conditions: Record<string, unknown>;
}

export interface AuditView {
  id: string;
  at: string;
  actor: { type: string; id: string; name: string };
  action: string;
  target: { type: string; id: string; name: string };
  reason: string | null;
}

export type ChangeActor = ReturnType<typeof actorOf>;

/** The gateway's partner access service (partners, keys, audit); it passes conditions on to pricing. */
export interface PartnerAccessPort {
  list(filter: { query: string; status: string; page: number }): Promise<PartnerSummary[]>;
  get(partnerId: string): Promise<PartnerWithConditions>;
  create(partner: Record<string, unknown>, actor: ChangeActor): Promise<PartnerWithConditions>;
  updateConditions(partnerId: string, conditions: Record<string, unknown>, reason: string, actor: ChangeActor): Promise<PartnerWithConditions>;
  suspend(partnerId: string, reason: string, actor: ChangeActor): Promise<PartnerSummary>;
  reactivate(partnerId: string, reason: string, actor: ChangeActor): Promise<PartnerSummary>;
  keys(partnerId: string): Promise<ApiKeyView[]>;
  createKey(partnerId: string, key: { name: string; role: string; expiresAt: string | null }, actor: ChangeActor): Promise<ApiKeyView & { key: string }>;
  revokeKey(partnerId: string, keyId: string, reason: string, actor: ChangeActor): Promise<ApiKeyView>;
  audit(partnerId: string, page: number): Promise<AuditView[]>;
}

/** The approval team's partner administration (PARTNER-PORTAL.md section 5); every change names the operator. */
export const partners = {
  list: (access: PartnerAccessPort, filter: { query: string; status: string; page: number }) => access.list(filter),

  /** A partner with its conditions and every key of this deployment's environment. */
  async show(access: PartnerAccessPort, partnerId: string) {
    const partner = await access.get(partnerId);
    return { ...partner, apiKeys: await access.keys(partnerId) };
  },

  async create(access: PartnerAccessPort, operator: Operator, partner: Record<string, unknown>) {
    const created = await access.create(partner, actorOf(operator));
    return { ...created, apiKeys: [] as ApiKeyView[] };
  },

  async updateConditions(access: PartnerAccessPort, operator: Operator, partnerId: string, conditions: Record<string, unknown>, reason: string) {
    const updated = await access.updateConditions(partnerId, conditions, reason, actorOf(operator));
    return { ...updated, apiKeys: await access.keys(partnerId) };
  },

  suspend: (access: PartnerAccessPort, operator: Operator, partnerId: string, reason: string) => access.suspend(partnerId, reason, actorOf(operator)),
  reactivate: (access: PartnerAccessPort, operator: Operator, partnerId: string, reason: string) => access.reactivate(partnerId, reason, actorOf(operator)),
  createKey: (access: PartnerAccessPort, operator: Operator, partnerId: string, key: { name: string; role: string; expiresAt: string | null }) =>
    access.createKey(partnerId, key, actorOf(operator)),
  revokeKey: (access: PartnerAccessPort, operator: Operator, partnerId: string, keyId: string, reason: string) =>
    access.revokeKey(partnerId, keyId, reason, actorOf(operator)),
  audit: (access: PartnerAccessPort, partnerId: string, page: number) => access.audit(partnerId, page),
};
