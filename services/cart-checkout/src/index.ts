import { schemaOf } from '@rental/config';

export { startCartCheckout } from './service';
export { loadCartCheckoutConfig, cartCheckoutVariables } from './config';
export { migrations as cartCheckoutMigrations } from './migrations';

/** Its schema, for tests that migrate it step by step. */
export const CART_CHECKOUT_SCHEMA = schemaOf('cart-checkout');
