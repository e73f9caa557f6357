import type { Knex } from '@rental/db';
import type { CheckoutOutcome, IdempotencyKeyRef } from '../domain/model/checkout';
import type { CheckoutLedger } from '../domain/ports';
import { keyExpiry } from './idempotency-repository';

/** The cart claim and the Idempotency-Key of a running checkout, kept and ended together. */
export class CheckoutLedgerRepository implements CheckoutLedger {
  constructor(
    private readonly db: Knex,
    private readonly retentionHours: number,
  ) {}

  async renew(cartId: string | undefined, key: IdempotencyKeyRef | undefined): Promise<void> {
    const now = new Date();
    if (cartId !== undefined) await this.db('carts').where({ id: cartId, status: 'checking_out' }).update({ claimed_at: now });
    if (key !== undefined) await this.db('idempotency_keys').where({ partner_id: key.partnerId, key: key.key, state: 'running' }).update({ started_at: now });
  }

  async complete(cartId: string, outcome: CheckoutOutcome, key: IdempotencyKeyRef | undefined): Promise<void> {
    const checkedOut = (db: Knex) =>
      db('carts')
        .where({ id: cartId })
        .update({ status: 'checked_out', financing_case_id: outcome.financingCaseId, quote_id: outcome.quoteId, updated_at: new Date() });
    if (key === undefined) {
      await checkedOut(this.db);
      return;
    }
    // One statement (the cart's update a data-modifying WITH) is one transaction and one round trip.
    await this.db
      .with('checked_out_cart', checkedOut(this.db))
      .from('idempotency_keys')
      .where({ partner_id: key.partnerId, key: key.key })
      .update({ state: 'completed', response_status: 201, response_body: JSON.stringify(outcome), expires_at: keyExpiry(this.retentionHours) });
  }
}
