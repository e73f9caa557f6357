import type { ApiKeyIdentity } from '@rental/proto';

/** Who made a change, as the audit and a key's `createdBy` name it. */
export interface Actor {
  type: string;
  id: string | null;
  name: string | null;
}

/** A key as the portal shows it: never the key or its hash. */
export interface ApiKeyView extends ApiKeyIdentity {
  createdBy: Actor;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  status: string;
}

/** A new key and, this once, the key itself. */
export interface CreatedApiKey {
  apiKey: ApiKeyView;
  key: string;
}

export interface AuditEntryView {
  at: string;
  actor: Actor;
  action: string;
  target: { type: string; id: string; name: string };
  reason: string | null;
}

/** The gateway's partners, keys and partner audit (PartnerAccessService). */
export interface PartnerAccess {
  /** Whether the partner exists (a token naming an unknown partner is refused). */
  partnerExists(partnerId: string): Promise<boolean>;
  listKeys(partnerId: string, statuses: string[], page: number): Promise<ApiKeyView[]>;
  createKey(partnerId: string, input: { name: string; role: string; expiresAt: string | null }, actor: Actor): Promise<CreatedApiKey>;
  rollKey(partnerId: string, keyId: string, overlapSeconds: number, actor: Actor): Promise<CreatedApiKey>;
  revokeKey(partnerId: string, keyId: string, actor: Actor): Promise<ApiKeyView>;
  listAudit(partnerId: string, page: number): Promise<AuditEntryView[]>;
  recordAudit(partnerId: string, entry: { actor: Actor; action: string; target: AuditEntryView['target'] }): Promise<void>;
}

/** The partner API's webhook endpoint operations, by their use. */
export type WebhookOperation =
  'ListEndpoints' | 'CreateEndpoint' | 'GetEndpoint' | 'UpdateEndpoint' | 'DeleteEndpoint' | 'ListDeliveries' | 'RotateSecret' | 'SendTestEvent' | 'Redeliver';

export interface WebhookCall {
  endpointId?: string;
  eventId?: string;
  page?: number;
  /** The JSON body the HTTP operation takes. */
  body?: unknown;
}

/**
 * The partner API's webhook endpoints (notifications), on the same data and with the same rules:
 * the answer is the JSON body /api/webhook_endpoints answers; a refusal is thrown as the
 * DomainError it answered, another partner's endpoint as one that does not exist.
 */
export interface WebhookEndpoints {
  call(partnerId: string, operation: WebhookOperation, call: WebhookCall): Promise<unknown>;
}

export interface PortalDependencies {
  access: PartnerAccess;
  webhooks: WebhookEndpoints;
  environment: string;
}
