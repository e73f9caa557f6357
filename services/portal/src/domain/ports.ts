/** Who made a change, as the audit and a key's `createdBy` name it. */
export interface Actor {
  type: string;
  id: string | null;
  name: string | null;
}

/** A key as the portal shows it: never the key or its hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  environment: string;
  role: string;
  prefix: string;
  createdAt: string;
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

/** A call of the partner API's webhook operations (notifications), made for the partner. */
export interface WebhookCall {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Beneath /api/webhook_endpoints: '' or '/{id}…'. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  requestId: string;
}

/** The answer of a successful call: the owner's status, body and the headers that matter to the caller. */
export interface WebhookReply {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * The partner API's webhook endpoints, on the same data and with the same rules; a refusal is
 * thrown as the DomainError the owner answered (another partner's endpoint as not found).
 */
export interface WebhookEndpoints {
  call(partnerId: string, call: WebhookCall): Promise<WebhookReply>;
}

export interface PortalDependencies {
  access: PartnerAccess;
  webhooks: WebhookEndpoints;
  environment: string;
}
