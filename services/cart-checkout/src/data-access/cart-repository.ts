import type { Knex } from '@rental/db';
import type { Cart } from '../domain/model/cart';
import type { CartItem } from '../domain/model/cart-item';
import type { CheckoutCarts } from '../domain/ports';
import type { CartPricing } from '../domain/model/cart';

export interface CartRow {
  id: string;
  partner_id: string;
  status: Cart['status'];
  items: CartItem[];
  pricing: CartPricing;
  financing_case_id: string | null;
  quote_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export const toCart = (row: CartRow): Cart => ({
  id: row.id,
  partnerId: row.partner_id,
  status: row.status,
  items: row.items,
  pricing: row.pricing,
  financingCaseId: row.financing_case_id,
  quoteId: row.quote_id,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

/** Why a cart in this status could not be claimed: checked out already, or another checkout holds it. */
export const refusalOf = (status: string | undefined): 'checked_out' | 'running' => (status === 'checked_out' ? 'checked_out' : 'running');

/** Why a cart could not be claimed, read as it stands now. */
export async function claimRefusal(db: Knex, id: string): Promise<'checked_out' | 'running'> {
  const row = (await db('carts').select('status').where({ id }).first()) as { status: string } | undefined;
  return refusalOf(row?.status);
}

export class CartRepository implements CheckoutCarts {
  constructor(private readonly db: Knex) {}

  async insert(cart: Cart): Promise<void> {
    await this.db('carts').insert({
      id: cart.id,
      partner_id: cart.partnerId,
      status: cart.status,
      items: JSON.stringify(cart.items),
      pricing: JSON.stringify(cart.pricing),
      created_at: cart.createdAt,
      updated_at: cart.updatedAt,
    });
  }

  async find(id: string): Promise<Cart | undefined> {
    const row: CartRow | undefined = await this.db('carts').where({ id }).first();
    return row ? toCart(row) : undefined;
  }

  async replaceItems(id: string, partnerId: string, items: CartItem[], pricing: CartPricing): Promise<boolean> {
    const updated = await this.db('carts')
      .where({ id, partner_id: partnerId, status: 'active' })
      .update({ items: JSON.stringify(items), pricing: JSON.stringify(pricing), updated_at: new Date() });
    return updated === 1;
  }

  async claim(id: string, leaseMs: number): Promise<Cart | 'checked_out' | 'running'> {
    const [claimed]: CartRow[] = await this.db('carts')
      .where({ id })
      .andWhere((query) =>
        query
          .where({ status: 'active' })
          .orWhere((stale) => stale.where({ status: 'checking_out' }).andWhere('claimed_at', '<', new Date(Date.now() - leaseMs))),
      )
      .update({ status: 'checking_out', claimed_at: new Date() })
      .returning('*');
    return claimed ? toCart(claimed) : claimRefusal(this.db, id);
  }

  async release(id: string): Promise<void> {
    await this.db('carts').where({ id, status: 'checking_out' }).update({ status: 'active', claimed_at: null });
  }
}
