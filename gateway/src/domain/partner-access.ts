import { API_KEY_LIMITS, API_KEY_ROLES, API_KEY_STATUSES } from '@rental/proto';
import { conflict, notFound, ruleViolation, violation } from '@rental/problem';
import { hashApiKey } from './api-key';
import { KEY_PREFIX_LENGTH, generateApiKey } from './key-format';

/** Who made a change: an operator, a partner's user, the platform itself, or the seed file. */
export interface Actor {
  type: 'operator' | 'partner_user' | 'system' | 'seed';
  id: string;
  name: string;
}

export interface ApiKeyRecord {
  id: string;
  partnerId: string;
  name: string;
  environment: string;
  roles: string[];
  prefix: string;
  createdAt: Date;
  createdBy: Actor;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  revokeReason: string | null;
}

export type KeyStatus = (typeof API_KEY_STATUSES)[number];
export const KEY_STATUSES: readonly KeyStatus[] = API_KEY_STATUSES;
export type KeyRole = (typeof API_KEY_ROLES)[number];

export interface PartnerRecord {
  id: string;
  name: string;
  contactEmail: string | null;
  status: 'active' | 'suspended';
  suspendedAt: Date | null;
  suspensionReason: string | null;
  /** Keys of the deployment's environment that are neither expired nor revoked. */
  activeKeys: number;
  lastUsedAt: Date | null;
}

export interface AuditTarget {
  type: 'api_key' | 'webhook_endpoint' | 'partner';
  id: string;
  name: string;
}

export interface AuditRecord {
  partnerId: string;
  actor: Actor;
  action: string;
  target: AuditTarget;
  reason: string;
}

export interface AuditEntry extends AuditRecord {
  id: string;
  at: Date;
}

export interface NewApiKey {
  id: string;
  partnerId: string;
  keyHash: string;
  name: string;
  environment: string;
  roles: string[];
  prefix: string;
  createdBy: Actor;
  expiresAt: Date | null;
}

/** A mail to the partner's contact about one of its keys (never the key itself). */
export interface KeyMail {
  partnerId: string;
  event: 'created' | 'rolled' | 'revoked' | 'expiring';
  key: ApiKeyRecord;
  actor: Actor;
}

/**
 * The gateway's store of partners, keys and audit. Every change that can stop a key (revoke,
 * roll, suspension) is written with its audit entry and its mail in one transaction that
 * announces itself to every gateway replica (Postgres NOTIFY), so their caches forget the keys.
 */
export interface PartnerAccessStore {
  findPartner(partnerId: string, environment: string): Promise<PartnerRecord | undefined>;
  listPartners(filter: { query: string; status: string; limit: number; offset: number }, environment: string): Promise<PartnerRecord[]>;
  insertPartner(partner: { id: string; name: string; contactEmail: string | null }, audit: AuditRecord): Promise<boolean>;
  updatePartnerProfile(partner: { id: string; name: string; contactEmail: string | null }, audit: AuditRecord): Promise<void>;
  setPartnerStatus(partnerId: string, status: 'active' | 'suspended', reason: string | null, at: Date, audit: AuditRecord): Promise<void>;
  listKeys(partnerId: string, environment: string, filter: { statuses: KeyStatus[]; limit: number; offset: number }, now: Date): Promise<ApiKeyRecord[]>;
  findKey(partnerId: string, keyId: string): Promise<ApiKeyRecord | undefined>;
  countLiveKeys(partnerId: string, environment: string, now: Date): Promise<number>;
  insertKey(key: NewApiKey, audit: AuditRecord, mail: KeyMail | undefined, maxLiveKeys: number, now: Date): Promise<ApiKeyRecord | 'limit_reached'>;
  rollKey(oldKeyId: string, oldExpiresAt: Date, key: NewApiKey, audit: AuditRecord, mail: KeyMail | undefined): Promise<ApiKeyRecord>;
  revokeKey(partnerId: string, keyId: string, reason: string, at: Date, audit: AuditRecord, mail: KeyMail | undefined): Promise<ApiKeyRecord>;
  recordAudit(audit: AuditRecord): Promise<AuditEntry>;
  /** Marks up to `limit` live keys that expire before `until` and were not noticed yet, with a mail each; returns how many. */
  noticeExpiringKeys(now: Date, until: Date, limit: number, mailOf: (key: ApiKeyRecord) => KeyMail): Promise<number>;
  listAudit(partnerId: string, limit: number, offset: number): Promise<AuditEntry[]>;
}

/** Pricing keeps the conditions; the gateway asks it to check and store them. */
export interface ConditionsOwner {
  /** The conditions in the seed file's shape, or undefined when pricing has no such partner. */
  conditionsOf(partnerId: string): Promise<Record<string, unknown> | undefined>;
  /** Validates (unknown lender, hub or sector: 422 naming the field) and stores; every pricing replica prices with them next. */
  putConditions(partner: { id: string; name: string; contactEmail: string | null }, conditions: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const { maxLiveKeys: MAX_LIVE_KEYS, maxRollOverlapSeconds: MAX_OVERLAP_SECONDS, maxLifetimeDays: MAX_EXPIRY_DAYS } = API_KEY_LIMITS;
export const EXPIRY_NOTICE_DAYS = 7;
const SYSTEM: Actor = { type: 'system', id: 'gateway', name: 'Partner Rental API' };

export function keyStatusOf(key: Pick<ApiKeyRecord, 'revokedAt' | 'expiresAt'>, now: Date): KeyStatus {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return key.expiresAt ? 'expiring' : 'active';
}

export const roleOfKey = (roles: string[]): KeyRole => (roles.includes('api_user') ? 'api_user' : 'readonly');
const rolesOf = (role: KeyRole): string[] => (role === 'api_user' ? ['api_user'] : []);

export interface PartnerAccessDependencies {
  store: PartnerAccessStore;
  conditions: ConditionsOwner;
  environment: string;
  now: () => Date;
  newKeyId: () => string;
}

function keyNotFound(keyId: string) {
  return notFound('api_key.not_found', `No API key ${keyId} of this partner.`);
}

function partnerNotFound(partnerId: string) {
  return notFound('partner.not_found', `No partner ${partnerId}.`);
}

/** The use cases of the partner access service, whoever asks (back office or portal). */
export class PartnerAccess {
  constructor(private readonly deps: PartnerAccessDependencies) {}

  async partner(partnerId: string): Promise<PartnerRecord> {
    const partner = await this.deps.store.findPartner(partnerId, this.deps.environment);
    if (!partner) throw partnerNotFound(partnerId);
    return partner;
  }

  async partnerWithConditions(partnerId: string): Promise<{ partner: PartnerRecord; conditions: Record<string, unknown> | undefined }> {
    const partner = await this.partner(partnerId);
    return { partner, conditions: await this.deps.conditions.conditionsOf(partnerId) };
  }

  /** A page of partners, each with its lender from pricing (a page is at most 30, asked for at once). */
  async listPartners(filter: {
    query: string;
    status: string;
    limit: number;
    offset: number;
  }): Promise<{ partner: PartnerRecord; financingPartner: string | null }[]> {
    const partners = await this.deps.store.listPartners(filter, this.deps.environment);
    const conditions = await Promise.all(partners.map((partner) => this.deps.conditions.conditionsOf(partner.id)));
    return partners.map((partner, index) => {
      const lender = conditions[index]?.financingPartner;
      return { partner, financingPartner: typeof lender === 'string' ? lender : null };
    });
  }

  /**
   * A new partner: pricing checks and stores the conditions first (an unknown lender, hub or
   * sector stops it before anything is written); then the gateway's row and its audit, together.
   */
  async createPartner(partner: { id: string; name: string; contactEmail: string | null }, conditions: Record<string, unknown>, actor: Actor, reason: string) {
    if (await this.deps.store.findPartner(partner.id, this.deps.environment)) throw partnerExists(partner.id);
    const stored = await this.deps.conditions.putConditions(partner, conditions);
    const inserted = await this.deps.store.insertPartner(partner, {
      partnerId: partner.id,
      actor,
      action: 'partner.created',
      target: { type: 'partner', id: partner.id, name: partner.name },
      reason,
    });
    if (!inserted) throw partnerExists(partner.id);
    return { partner: await this.partner(partner.id), conditions: stored };
  }

  async updateConditions(partnerId: string, conditions: Record<string, unknown>, actor: Actor, reason: string) {
    const partner = await this.partner(partnerId);
    const stored = await this.deps.conditions.putConditions({ id: partner.id, name: partner.name, contactEmail: partner.contactEmail }, conditions);
    await this.deps.store.recordAudit({
      partnerId,
      actor,
      action: 'partner.conditions_changed',
      target: { type: 'partner', id: partner.id, name: partner.name },
      reason,
    });
    return { partner, conditions: stored };
  }

  async suspend(partnerId: string, reason: string, actor: Actor): Promise<PartnerRecord> {
    const partner = await this.partner(partnerId);
    if (partner.status === 'suspended') throw ruleViolation('partner.already_suspended', `Partner ${partnerId} is suspended already.`);
    return this.changeStatus(partner, 'suspended', reason, actor);
  }

  async reactivate(partnerId: string, reason: string, actor: Actor): Promise<PartnerRecord> {
    const partner = await this.partner(partnerId);
    if (partner.status !== 'suspended') throw ruleViolation('partner.not_suspended', `Partner ${partnerId} is not suspended.`);
    return this.changeStatus(partner, 'active', reason, actor);
  }

  /** The new status with its audit entry; only a suspension keeps the reason on the partner. */
  private async changeStatus(partner: PartnerRecord, status: 'suspended' | 'active', reason: string, actor: Actor): Promise<PartnerRecord> {
    await this.deps.store.setPartnerStatus(partner.id, status, status === 'suspended' ? reason : null, this.deps.now(), {
      partnerId: partner.id,
      actor,
      action: status === 'suspended' ? 'partner.suspended' : 'partner.reactivated',
      target: { type: 'partner', id: partner.id, name: partner.name },
      reason,
    });
    return this.partner(partner.id);
  }

  async listKeys(partnerId: string, environment: string, statuses: KeyStatus[], limit: number, offset: number): Promise<ApiKeyRecord[]> {
    await this.partner(partnerId);
    return this.deps.store.listKeys(partnerId, environment || this.deps.environment, { statuses, limit, offset }, this.deps.now());
  }

  async createKey(request: {
    partnerId: string;
    environment: string;
    name: string;
    role: string;
    expiresAt: string;
    actor: Actor;
  }): Promise<{ key: string; record: ApiKeyRecord }> {
    await this.partner(request.partnerId);
    const environment = request.environment || this.deps.environment;
    const now = this.deps.now();
    const violations = [];
    const name = request.name.trim();
    if (name.length < 1 || name.length > 100) violations.push(violation('name', 'validation.length', 'must be 1 to 100 characters'));
    if (request.role !== 'api_user' && request.role !== 'readonly') violations.push(violation('role', 'validation.choice', 'must be api_user or readonly'));
    let expiresAt: Date | null = null;
    if (request.expiresAt) {
      expiresAt = new Date(request.expiresAt);
      if (Number.isNaN(expiresAt.getTime())) violations.push(violation('expiresAt', 'validation.type', 'must be an ISO 8601 date-time'));
      else if (expiresAt.getTime() <= now.getTime()) violations.push(violation('expiresAt', 'validation.future', 'must be in the future'));
      else if (expiresAt.getTime() > now.getTime() + MAX_EXPIRY_DAYS * 86_400_000)
        violations.push(violation('expiresAt', 'validation.range', `must be at most ${MAX_EXPIRY_DAYS} days ahead`));
    }
    if (violations.length) throw ruleViolation('validation_failed', violations.map((v) => `${v.propertyPath}: ${v.message}`).join('\n'), violations);
    const key = generateApiKey(environment);
    const fresh = this.newKey(request.partnerId, environment, name, request.role as KeyRole, key, request.actor, expiresAt);
    const audit = this.keyAudit(request.partnerId, request.actor, 'api_key.created', fresh.id, name, '');
    const result = await this.deps.store.insertKey(fresh, audit, this.mailOf(request.partnerId, 'created', fresh, request.actor, now), MAX_LIVE_KEYS, now);
    if (result === 'limit_reached') {
      throw ruleViolation(
        'api_key.limit_reached',
        `At most ${MAX_LIVE_KEYS} keys per partner and environment may be neither expired nor revoked; revoke one first.`,
        [violation('', 'api_key.limit_reached', `at most ${MAX_LIVE_KEYS} live keys`)],
      );
    }
    return { key, record: result };
  }

  async rollKey(request: { partnerId: string; keyId: string; overlapSeconds: number; actor: Actor }): Promise<{ key: string; record: ApiKeyRecord }> {
    const old = await this.deps.store.findKey(request.partnerId, request.keyId);
    if (!old) throw keyNotFound(request.keyId);
    if (!Number.isInteger(request.overlapSeconds) || request.overlapSeconds < 0 || request.overlapSeconds > MAX_OVERLAP_SECONDS) {
      throw ruleViolation('validation_failed', `expiresIn: must be 0 to ${MAX_OVERLAP_SECONDS} seconds`, [
        violation('expiresIn', 'validation.range', `must be 0 to ${MAX_OVERLAP_SECONDS}`),
      ]);
    }
    const now = this.deps.now();
    const status = keyStatusOf(old, now);
    if (status === 'expired' || status === 'revoked') throw ruleViolation('api_key.not_live', `Key ${old.id} is ${status}; only a live key can be rolled.`);
    const key = generateApiKey(old.environment);
    const fresh = this.newKey(old.partnerId, old.environment, old.name, roleOfKey(old.roles), key, request.actor, null);
    const oldExpiresAt = new Date(now.getTime() + request.overlapSeconds * 1000);
    const keepExpiry = old.expiresAt && old.expiresAt.getTime() < oldExpiresAt.getTime() ? old.expiresAt : oldExpiresAt;
    const audit = this.keyAudit(request.partnerId, request.actor, 'api_key.rolled', old.id, old.name, '');
    const record = await this.deps.store.rollKey(old.id, keepExpiry, fresh, audit, this.mailOf(request.partnerId, 'rolled', fresh, request.actor, now));
    return { key, record };
  }

  async revokeKey(request: { partnerId: string; keyId: string; reason: string; actor: Actor }): Promise<ApiKeyRecord> {
    const key = await this.deps.store.findKey(request.partnerId, request.keyId);
    if (!key) throw keyNotFound(request.keyId);
    if (key.revokedAt) return key;
    const now = this.deps.now();
    const audit = this.keyAudit(request.partnerId, request.actor, 'api_key.revoked', key.id, key.name, request.reason);
    return this.deps.store.revokeKey(request.partnerId, key.id, request.reason, now, audit, this.mailOf(request.partnerId, 'revoked', key, request.actor, now));
  }

  async listAudit(partnerId: string, limit: number, offset: number): Promise<AuditEntry[]> {
    await this.partner(partnerId);
    return this.deps.store.listAudit(partnerId, limit, offset);
  }

  async recordAudit(audit: AuditRecord): Promise<AuditEntry> {
    await this.partner(audit.partnerId);
    return this.deps.store.recordAudit(audit);
  }

  /** Each key that will expire within 7 days is mailed about once (either environment); true while more wait. */
  async sendExpiryNotices(): Promise<boolean> {
    const now = this.deps.now();
    const batch = 100;
    const noticed = await this.deps.store.noticeExpiringKeys(now, new Date(now.getTime() + EXPIRY_NOTICE_DAYS * 86_400_000), batch, (key) => ({
      partnerId: key.partnerId,
      event: 'expiring',
      key,
      actor: SYSTEM,
    }));
    return noticed === batch;
  }

  private newKey(partnerId: string, environment: string, name: string, role: KeyRole, key: string, actor: Actor, expiresAt: Date | null): NewApiKey {
    return {
      id: this.deps.newKeyId(),
      partnerId,
      keyHash: hashApiKey(key),
      name,
      environment,
      roles: rolesOf(role),
      prefix: key.slice(0, KEY_PREFIX_LENGTH),
      createdBy: actor,
      expiresAt,
    };
  }

  private keyAudit(partnerId: string, actor: Actor, action: string, keyId: string, name: string, reason: string): AuditRecord {
    return { partnerId, actor, action, target: { type: 'api_key', id: keyId, name }, reason };
  }

  /** Production keys' creation, roll and revocation are mailed to the partner's contact. */
  private mailOf(partnerId: string, event: KeyMail['event'], key: NewApiKey | ApiKeyRecord, actor: Actor, now: Date): KeyMail | undefined {
    if (key.environment !== 'production') return undefined;
    const record: ApiKeyRecord =
      'keyHash' in key
        ? {
            id: key.id,
            partnerId,
            name: key.name,
            environment: key.environment,
            roles: key.roles,
            prefix: key.prefix,
            createdAt: now,
            createdBy: key.createdBy,
            lastUsedAt: null,
            expiresAt: key.expiresAt,
            revokedAt: null,
            revokeReason: null,
          }
        : key;
    return { partnerId, event, key: record, actor };
  }
}

function partnerExists(partnerId: string) {
  return conflict('partner.exists', `A partner with id ${partnerId} exists already.`);
}
