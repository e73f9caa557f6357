export { startCartCheckout, CART_CHECKOUT_SCHEMA } from './service';
export { loadCartCheckoutConfig, cartCheckoutVariables } from './config';
