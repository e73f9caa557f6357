export { startCartCheckout, CART_CHECKOUT_SCHEMA } from './service';
export { loadCartCheckoutConfig, cartCheckoutVariables } from './config';
export { migrations as cartCheckoutMigrations } from './migrations';
