import { ulid } from '@rental/ids';
import { notFound, ruleViolation } from '@rental/problem';
import type { CartItem } from './model/cart-item';
import type { CallContext, CartStore, PricingPort } from './ports';
import type { Cart } from './model/cart';

export async function createCart(items: CartItem[], store: CartStore, pricing: PricingPort, context: CallContext): Promise<Cart> {
  const priced = await pricing.priceCart(items, context);
  const now = new Date().toISOString();
  const cart: Cart = {
    id: ulid(),
    partnerId: context.partnerId,
    status: 'active',
    items,
    pricing: priced,
    financingCaseId: null,
    quoteId: null,
    createdAt: now,
    updatedAt: now,
  };
  await store.insert(cart);
  return cart;
}

/** GET and PUT: another partner's cart is as unknown as a missing one. */
export async function ownCart(store: CartStore, id: string, partnerId: string): Promise<Cart> {
  const cart = await store.find(id);
  if (!cart || cart.partnerId !== partnerId) throw notFound('cart.not_found', `No cart ${id}.`);
  return cart;
}

export async function replaceCart(id: string, items: CartItem[], store: CartStore, pricing: PricingPort, context: CallContext): Promise<Cart> {
  const cart = await ownCart(store, id, context.partnerId);
  if (cart.status !== 'active') throw alreadyCheckedOut();
  const priced = await pricing.priceCart(items, context);
  if (!(await store.replaceItems(id, context.partnerId, items, priced))) throw alreadyCheckedOut();
  return ownCart(store, id, context.partnerId);
}

function alreadyCheckedOut() {
  return ruleViolation('cart.not_active', 'The cart is checked out (or being checked out) and can no longer be changed.', [
    { propertyPath: 'items', code: 'cart.not_active', message: 'A checked-out cart cannot be changed.' },
  ]);
}
