import type { Knex } from '@rental/db';
import type { CheckoutOutcome, IdempotencyStart } from '../domain/model/checkout';
import type { IdempotencyStore } from '../domain/ports';

interface KeyRow {
  request_hash: string;
  state: 'running' | 'completed';
  response_body: CheckoutOutcome | null;
  started_at: Date;
  expires_at: Date;
}

/** When a key used now may be forgotten. */
export function keyExpiry(retentionHours: number): Date {
  return new Date(Date.now() + retentionHours * 3_600_000);
}

/** Idempotency keys per partner; only completed checkouts (201) are kept for replay. */
export class IdempotencyRepository implements IdempotencyStore {
  constructor(
    private readonly db: Knex,
    private readonly retentionHours: number,
  ) {}

  async begin(partnerId: string, key: string, requestHash: string, leaseMs: number): Promise<IdempotencyStart> {
    // A new key (nearly every request) is one statement on its own; only a key seen before needs
    // the transaction that reads and takes it over under a row lock.
    const inserted = await this.db('idempotency_keys')
      .insert({ partner_id: partnerId, key, request_hash: requestHash, state: 'running', started_at: new Date(), expires_at: keyExpiry(this.retentionHours) })
      .onConflict(['partner_id', 'key'])
      .ignore()
      .returning('key');
    if (inserted.length) return { outcome: 'started' };
    return this.db.transaction(async (trx) => {
      const row: KeyRow | undefined = await trx('idempotency_keys').where({ partner_id: partnerId, key }).forUpdate().first();
      // Abandoned (deleted) between the insert and this read: the next request starts afresh.
      if (!row) return { outcome: 'running' as const };
      const now = Date.now();
      if (row.expires_at.getTime() < now) {
        await trx('idempotency_keys')
          .where({ partner_id: partnerId, key })
          .update({ request_hash: requestHash, state: 'running', response_body: null, started_at: new Date(), expires_at: keyExpiry(this.retentionHours) });
        return { outcome: 'started' as const };
      }
      if (row.request_hash !== requestHash) return { outcome: 'mismatch' as const };
      if (row.state === 'completed' && row.response_body) return { outcome: 'replay' as const, checkout: row.response_body };
      if (row.started_at.getTime() < now - leaseMs) {
        // The process that held the key died mid-request; this retry takes it over.
        await trx('idempotency_keys').where({ partner_id: partnerId, key }).update({ started_at: new Date() });
        return { outcome: 'started' as const };
      }
      return { outcome: 'running' as const };
    });
  }

  async abandon(partnerId: string, key: string): Promise<void> {
    await this.db('idempotency_keys').where({ partner_id: partnerId, key, state: 'running' }).delete();
  }

  /** Drops keys past their retention; run now and then. */
  async purgeExpired(): Promise<number> {
    return this.db('idempotency_keys').where('expires_at', '<', new Date()).delete();
  }
}
