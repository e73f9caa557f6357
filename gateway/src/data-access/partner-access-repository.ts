import { randomUUID } from 'node:crypto';
import { enqueueOutbox } from '@rental/bus';
import { type Knex, transactionWithNotification } from '@rental/db';
import { ulid } from 'ulid';
import type { MailRequestedEvent } from '@rental/proto';
import { keyMailOf } from '../domain/key-mail';
import type { Actor, ApiKeyRecord, AuditEntry, AuditRecord, KeyMail, KeyStatus, NewApiKey, PartnerAccessStore, PartnerRecord } from '../domain/partner-access';

/** Every gateway replica forgets the keys it cached when a change of access commits (api-key-cache.ts). */
export const ACCESS_CHANGED_CHANNEL = 'gateway_access_changed';

interface KeyRow {
  id: string;
  partner_id: string;
  name: string;
  environment: string;
  roles: string[];
  prefix: string;
  created_at: Date;
  created_by_type: string;
  created_by_id: string;
  created_by_name: string;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  revoke_reason: string | null;
}

const KEY_COLUMNS = [
  'id',
  'partner_id',
  'name',
  'environment',
  'roles',
  'prefix',
  'created_at',
  'created_by_type',
  'created_by_id',
  'created_by_name',
  'last_used_at',
  'expires_at',
  'revoked_at',
  'revoke_reason',
];

const keyOf = (row: KeyRow): ApiKeyRecord => ({
  id: row.id,
  partnerId: row.partner_id,
  name: row.name,
  environment: row.environment,
  roles: row.roles,
  prefix: row.prefix,
  createdAt: row.created_at,
  createdBy: { type: row.created_by_type as Actor['type'], id: row.created_by_id, name: row.created_by_name },
  lastUsedAt: row.last_used_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  revokeReason: row.revoke_reason,
});

interface AuditRow {
  id: string;
  partner_id: string;
  at: Date;
  actor_type: string;
  actor_id: string;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string;
  target_name: string;
  reason: string;
}

const auditOf = (row: AuditRow): AuditEntry => ({
  id: row.id,
  partnerId: row.partner_id,
  at: row.at,
  actor: { type: row.actor_type as Actor['type'], id: row.actor_id, name: row.actor_name },
  action: row.action,
  target: { type: row.target_type as AuditEntry['target']['type'], id: row.target_id, name: row.target_name },
  reason: row.reason,
});

/** Keys that are neither revoked nor past their expiry at `now`. */
function whereLive(query: Knex.QueryBuilder, now: Date): Knex.QueryBuilder {
  return query.whereNull('revoked_at').where((live) => live.whereNull('expires_at').orWhere('expires_at', '>', now));
}

export class PartnerAccessRepository implements PartnerAccessStore {
  constructor(
    private readonly db: Knex,
    private readonly mail: { subject: string; environment: string },
  ) {}

  private partnersQuery(environment: string) {
    const keys = this.db('api_keys')
      .select('partner_id')
      .select(this.db.raw('count(*) FILTER (WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()))::int AS active_keys'))
      .max({ last_used_at: 'last_used_at' })
      .where({ environment })
      .groupBy('partner_id')
      .as('k');
    return this.db('partners as p')
      .leftJoin(keys, 'k.partner_id', 'p.id')
      .select('p.id', 'p.name', 'p.contact_email', 'p.status', 'p.suspended_at', 'p.suspension_reason', 'k.active_keys', 'k.last_used_at');
  }

  private static partnerOf(row: {
    id: string;
    name: string;
    contact_email: string | null;
    status: string;
    suspended_at: Date | null;
    suspension_reason: string | null;
    active_keys: number | null;
    last_used_at: Date | null;
  }): PartnerRecord {
    return {
      id: row.id,
      name: row.name,
      contactEmail: row.contact_email,
      status: row.status === 'suspended' ? 'suspended' : 'active',
      suspendedAt: row.suspended_at,
      suspensionReason: row.suspension_reason,
      activeKeys: row.active_keys ?? 0,
      lastUsedAt: row.last_used_at,
    };
  }

  async findPartner(partnerId: string, environment: string): Promise<PartnerRecord | undefined> {
    const row = await this.partnersQuery(environment).where('p.id', partnerId).first();
    return row ? PartnerAccessRepository.partnerOf(row) : undefined;
  }

  async listPartners(filter: { query: string; status: string; limit: number; offset: number }, environment: string): Promise<PartnerRecord[]> {
    const query = this.partnersQuery(environment).orderBy('p.id').limit(filter.limit).offset(filter.offset);
    if (filter.status) query.where('p.status', filter.status);
    if (filter.query) {
      const pattern = `%${filter.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query.where((match) => match.whereILike('p.id', pattern).orWhereILike('p.name', pattern));
    }
    return (await query).map(PartnerAccessRepository.partnerOf);
  }

  async insertPartner(partner: { id: string; name: string; contactEmail: string | null }, audit: AuditRecord): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const inserted = await trx('partners')
        .insert({ id: partner.id, name: partner.name, contact_email: partner.contactEmail })
        .onConflict('id')
        .ignore()
        .returning('id');
      if (!inserted.length) return false;
      await this.insertAudit(trx, audit);
      return true;
    });
  }

  async updatePartnerProfile(partner: { id: string; name: string; contactEmail: string | null }, audit: AuditRecord): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('partners').where({ id: partner.id }).update({ name: partner.name, contact_email: partner.contactEmail });
      await this.insertAudit(trx, audit);
    });
  }

  async setPartnerStatus(partnerId: string, status: 'active' | 'suspended', reason: string | null, at: Date, audit: AuditRecord): Promise<void> {
    await transactionWithNotification(this.db, ACCESS_CHANGED_CHANNEL, async (trx) => {
      await trx('partners')
        .where({ id: partnerId })
        .update({
          status,
          suspended_at: status === 'suspended' ? at : null,
          suspension_reason: status === 'suspended' ? reason : null,
        });
      await this.insertAudit(trx, audit);
    });
  }

  async listKeys(partnerId: string, environment: string, filter: { statuses: KeyStatus[]; limit: number; offset: number }, now: Date): Promise<ApiKeyRecord[]> {
    const query = this.db('api_keys')
      .select(KEY_COLUMNS)
      .where({ partner_id: partnerId, environment })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(filter.limit)
      .offset(filter.offset);
    if (filter.statuses.length) {
      query.where((any) => {
        for (const status of filter.statuses) {
          any.orWhere((one) => {
            if (status === 'revoked') one.whereNotNull('revoked_at');
            else if (status === 'expired') one.whereNull('revoked_at').where('expires_at', '<=', now);
            else if (status === 'expiring') one.whereNull('revoked_at').where('expires_at', '>', now);
            else one.whereNull('revoked_at').whereNull('expires_at');
          });
        }
      });
    }
    return (await query).map(keyOf);
  }

  async findKey(partnerId: string, keyId: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db('api_keys').select(KEY_COLUMNS).where({ partner_id: partnerId, id: keyId }).first();
    return row ? keyOf(row) : undefined;
  }

  async countLiveKeys(partnerId: string, environment: string, now: Date): Promise<number> {
    return this.countLive(this.db, partnerId, environment, now);
  }

  private async countLive(db: Knex, partnerId: string, environment: string, now: Date): Promise<number> {
    const [{ count }] = await whereLive(db('api_keys').where({ partner_id: partnerId, environment }), now).count<{ count: string }[]>({ count: '*' });
    return Number(count);
  }

  async insertKey(key: NewApiKey, audit: AuditRecord, mail: KeyMail | undefined, maxLiveKeys: number, now: Date): Promise<ApiKeyRecord | 'limit_reached'> {
    return this.db.transaction(async (trx) => {
      // One creation per partner at a time, so two concurrent ones cannot both take the tenth place.
      await trx('partners').where({ id: key.partnerId }).forUpdate().first('id');
      if ((await this.countLive(trx, key.partnerId, key.environment, now)) >= maxLiveKeys) return 'limit_reached' as const;
      const [row] = await trx('api_keys').insert(this.keyRow(key)).returning(KEY_COLUMNS);
      await this.insertAudit(trx, audit);
      if (mail) await this.enqueueMail(trx, mail);
      return keyOf(row);
    });
  }

  async rollKey(oldKeyId: string, oldExpiresAt: Date, key: NewApiKey, audit: AuditRecord, mail: KeyMail | undefined): Promise<ApiKeyRecord> {
    return transactionWithNotification(this.db, ACCESS_CHANGED_CHANNEL, async (trx) => {
      await trx('api_keys').where({ id: oldKeyId, partner_id: key.partnerId }).update({ expires_at: oldExpiresAt });
      const [row] = await trx('api_keys').insert(this.keyRow(key)).returning(KEY_COLUMNS);
      await this.insertAudit(trx, audit);
      if (mail) await this.enqueueMail(trx, mail);
      return keyOf(row);
    });
  }

  async revokeKey(partnerId: string, keyId: string, reason: string, at: Date, audit: AuditRecord, mail: KeyMail | undefined): Promise<ApiKeyRecord> {
    return transactionWithNotification(this.db, ACCESS_CHANGED_CHANNEL, async (trx) => {
      const [row] = await trx('api_keys')
        .where({ partner_id: partnerId, id: keyId })
        .whereNull('revoked_at')
        .update({ revoked_at: at, revoke_reason: reason || null })
        .returning(KEY_COLUMNS);
      if (!row) return keyOf(await trx('api_keys').select(KEY_COLUMNS).where({ partner_id: partnerId, id: keyId }).first());
      await this.insertAudit(trx, audit);
      if (mail) await this.enqueueMail(trx, { ...mail, key: keyOf(row) });
      return keyOf(row);
    });
  }

  async recordAudit(audit: AuditRecord): Promise<AuditEntry> {
    return this.db.transaction((trx) => this.insertAudit(trx, audit));
  }

  async noticeExpiringKeys(now: Date, until: Date, limit: number, mailOf: (key: ApiKeyRecord) => KeyMail): Promise<number> {
    return this.db.transaction(async (trx) => {
      const rows: KeyRow[] = await whereLive(trx('api_keys'), now)
        .select(KEY_COLUMNS)
        .whereNull('expiry_notice_at')
        .where('expires_at', '<=', until)
        .orderBy('expires_at')
        .limit(limit)
        .forUpdate()
        .skipLocked();
      if (!rows.length) return 0;
      await trx('api_keys')
        .whereIn(
          'id',
          rows.map((row) => row.id),
        )
        .update({ expiry_notice_at: now });
      for (const row of rows) await this.enqueueMail(trx, mailOf(keyOf(row)));
      return rows.length;
    });
  }

  async listAudit(partnerId: string, limit: number, offset: number): Promise<AuditEntry[]> {
    const rows = await this.db('partner_audit').where({ partner_id: partnerId }).orderBy('seq', 'desc').limit(limit).offset(offset);
    return rows.map(auditOf);
  }

  private keyRow(key: NewApiKey) {
    return {
      id: key.id,
      key_hash: key.keyHash,
      partner_id: key.partnerId,
      environment: key.environment,
      roles: key.roles,
      name: key.name,
      prefix: key.prefix,
      created_by_type: key.createdBy.type,
      created_by_id: key.createdBy.id,
      created_by_name: key.createdBy.name,
      expires_at: key.expiresAt,
    };
  }

  private async insertAudit(trx: Knex.Transaction, audit: AuditRecord): Promise<AuditEntry> {
    const [row] = await trx('partner_audit')
      .insert({
        id: `aud_${ulid()}`,
        partner_id: audit.partnerId,
        actor_type: audit.actor.type,
        actor_id: audit.actor.id,
        actor_name: audit.actor.name,
        action: audit.action,
        target_type: audit.target.type,
        target_id: audit.target.id,
        target_name: audit.target.name,
        reason: audit.reason,
      })
      .returning('*');
    return auditOf(row);
  }

  /** The mail goes with the change: through the outbox to notifications (mail.requested), which mails the partner's contact. */
  async enqueueMail(trx: Knex.Transaction, mail: KeyMail): Promise<void> {
    const messageId = randomUUID();
    const payload: MailRequestedEvent = {
      id: `api-key-${mail.event}-${mail.key.id}-${messageId}`,
      ...keyMailOf(mail, this.mail.environment),
      recipient: { partnerId: mail.partnerId },
      financingCaseId: null,
      environment: this.mail.environment,
    };
    await enqueueOutbox(trx, { messageId, subject: this.mail.subject, payload });
  }
}
