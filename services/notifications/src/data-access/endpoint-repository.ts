import { Knex, isUniqueViolation } from '@rental/db';
import type { EndpointStore, SecretRotationStore } from '../domain/ports';
import type { CreateOutcome, NewEndpoint, WebhookEndpoint } from '../domain/model';

interface EndpointRow {
  id: string;
  partner_id: string;
  url: string;
  active: boolean;
  created_at: Date;
}

// The secret is selected only where a delivery is signed, never for a response.
const PUBLIC_COLUMNS = ['id', 'partner_id', 'url', 'active', 'created_at'];

const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  partnerId: row.partner_id,
  url: row.url,
  active: row.active,
  createdAt: row.created_at.toISOString(),
});

/** Drops what is still pending for an endpoint that was paused or deleted. */
function dropPending(trx: Knex.Transaction, endpointId: string, reason: 'endpoint_paused' | 'endpoint_deleted') {
  return trx('deliveries')
    .where({ endpoint_id: endpointId, status: 'pending' })
    .update({ status: 'dropped', drop_reason: reason, next_attempt_at: null, completed_at: trx.fn.now() });
}

export class EndpointRepository implements EndpointStore, SecretRotationStore {
  constructor(private readonly db: Knex) {}

  async create(endpoint: NewEndpoint, limit: number): Promise<CreateOutcome> {
    try {
      return await this.db.transaction(async (trx) => {
        // One registration per partner at a time, so two concurrent requests cannot make a 21st.
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`webhook_endpoints:${endpoint.partnerId}`]);
        const live = trx('webhook_endpoints').where({ partner_id: endpoint.partnerId }).whereNull('deleted_at');
        if (await live.clone().where({ normalized_url: endpoint.normalizedUrl }).first('id')) return 'duplicate';
        const [{ count }] = await live.clone().count<{ count: string }[]>({ count: '*' });
        if (Number(count) >= limit) return 'limit_reached';
        await trx('webhook_endpoints').insert({
          id: endpoint.id,
          partner_id: endpoint.partnerId,
          url: endpoint.url,
          normalized_url: endpoint.normalizedUrl,
          secret: endpoint.secret,
          active: endpoint.active,
          created_at: endpoint.createdAt,
          updated_at: endpoint.createdAt,
        });
        return 'created';
      });
    } catch (error) {
      if (isUniqueViolation(error)) return 'duplicate';
      throw error;
    }
  }

  async list(partnerId: string, limit: number, offset: number): Promise<WebhookEndpoint[]> {
    const rows: EndpointRow[] = await this.db('webhook_endpoints')
      .select(PUBLIC_COLUMNS)
      .where({ partner_id: partnerId })
      .whereNull('deleted_at')
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .limit(limit)
      .offset(offset);
    return rows.map(toEndpoint);
  }

  async find(partnerId: string, id: string): Promise<WebhookEndpoint | undefined> {
    const row: EndpointRow | undefined = await this.db('webhook_endpoints')
      .select(PUBLIC_COLUMNS)
      .where({ id, partner_id: partnerId })
      .whereNull('deleted_at')
      .first();
    return row ? toEndpoint(row) : undefined;
  }

  async ownerOf(id: string): Promise<string | undefined> {
    const row: { partner_id: string } | undefined = await this.db('webhook_endpoints').select('partner_id').where({ id }).whereNull('deleted_at').first();
    return row?.partner_id;
  }

  async setActive(partnerId: string, id: string, active: boolean): Promise<WebhookEndpoint | undefined> {
    return this.db.transaction(async (trx) => {
      const [row]: EndpointRow[] = await trx('webhook_endpoints')
        .where({ id, partner_id: partnerId })
        .whereNull('deleted_at')
        .update({ active, updated_at: trx.fn.now() })
        .returning(PUBLIC_COLUMNS);
      if (!row) return undefined;
      if (!active) await dropPending(trx, id, 'endpoint_paused');
      return toEndpoint(row);
    });
  }

  async rotateSecret(partnerId: string, id: string, secret: string, previousExpiresAt: Date | null): Promise<boolean> {
    // Every right-hand side reads the row as it was, so previous_secret gets the replaced secret.
    const updated = await this.db('webhook_endpoints')
      .where({ id, partner_id: partnerId })
      .whereNull('deleted_at')
      .update({
        previous_secret: previousExpiresAt ? this.db.raw('??', ['secret']) : null,
        previous_secret_expires_at: previousExpiresAt,
        secret,
        updated_at: this.db.fn.now(),
      });
    return updated > 0;
  }

  async delete(partnerId: string, id: string): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const updated = await trx('webhook_endpoints')
        .where({ id, partner_id: partnerId })
        .whereNull('deleted_at')
        .update({ deleted_at: trx.fn.now(), updated_at: trx.fn.now(), active: false });
      if (updated === 0) return false;
      await dropPending(trx, id, 'endpoint_deleted');
      return true;
    });
  }
}
