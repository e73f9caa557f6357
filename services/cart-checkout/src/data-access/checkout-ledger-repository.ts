import type { Knex } from '@rental/db';
import type { Cart } from '../domain/model/cart';
import type { CheckoutOutcome, CheckoutStart, IdempotencyKeyRef } from '../domain/model/checkout';
import type { CheckoutLedger } from '../domain/ports';
import { CartRow, claimRefusal, refusalOf, toCart } from './cart-repository';
import { keyExpiry } from './idempotency-repository';

/**
 * A checkout's first round trip: the cart; the key, inserted as running for the caller's own cart
 * unless it exists; the cart's claim (as CartRepository.claim takes it) once the key was new or no
 * key was given. The cart and the claimed cart come back as JSON rows, since one of them may be missing.
 */
const START_CHECKOUT = `
WITH cart AS (SELECT * FROM carts WHERE id = :cartId),
new_key AS (
  INSERT INTO idempotency_keys (partner_id, key, request_hash, state, started_at, expires_at)
  SELECT :partnerId, :key, :requestHash, 'running', :now, :expiresAt
  WHERE :withKey AND EXISTS (SELECT 1 FROM cart WHERE partner_id = :partnerId)
  ON CONFLICT (partner_id, key) DO NOTHING
  RETURNING key
),
claimed AS (
  UPDATE carts SET status = 'checking_out', claimed_at = :now
  WHERE id = :cartId AND partner_id = :partnerId
    AND (status = 'active' OR (status = 'checking_out' AND claimed_at < :staleBefore))
    AND (NOT :withKey OR EXISTS (SELECT 1 FROM new_key))
  RETURNING *
)
SELECT (SELECT to_jsonb(cart) FROM cart) AS cart, EXISTS (SELECT 1 FROM new_key) AS key_started, (SELECT to_jsonb(claimed) FROM claimed) AS claimed`;

type CartJsonRow = Omit<CartRow, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string };

const cartOfJson = (row: CartJsonRow): Cart => toCart({ ...row, created_at: new Date(row.created_at), updated_at: new Date(row.updated_at) });

/** The cart claim and the Idempotency-Key of a running checkout, kept and ended together. */
export class CheckoutLedgerRepository implements CheckoutLedger {
  constructor(
    private readonly db: Knex,
    private readonly retentionHours: number,
  ) {}

  async start(cartId: string, partnerId: string, key: { key: string; requestHash: string } | undefined, leaseMs: number): Promise<CheckoutStart<Cart>> {
    const now = new Date();
    const {
      rows: [row],
    } = (await this.db.raw(START_CHECKOUT, {
      cartId,
      partnerId,
      withKey: key !== undefined,
      key: key?.key ?? '',
      requestHash: key?.requestHash ?? '',
      now,
      expiresAt: keyExpiry(this.retentionHours),
      staleBefore: new Date(now.getTime() - leaseMs),
    })) as { rows: { cart: CartJsonRow | null; key_started: boolean; claimed: CartJsonRow | null }[] };
    const cart = row?.cart ? cartOfJson(row.cart) : undefined;
    const keyState = key === undefined ? 'none' : row?.key_started ? 'started' : 'seen';
    const claimTried = cart !== undefined && cart.partnerId === partnerId && keyState !== 'seen';
    if (row?.claimed) return { cart, key: keyState, claim: cartOfJson(row.claimed) };
    if (!claimTried) return { cart, key: keyState, claim: undefined };
    // Not claimed: a cart read as active was taken meanwhile by another checkout, which may have
    // finished since; any other status read in the statement says why already.
    return { cart, key: keyState, claim: cart.status === 'active' ? await claimRefusal(this.db, cartId) : refusalOf(cart.status) };
  }

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
