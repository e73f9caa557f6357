import { runUntilSignal } from '@rental/http';
import { loadCartCheckoutConfig } from './config';
import { startCartCheckout } from './service';

runUntilSignal('cart-checkout', () => startCartCheckout(loadCartCheckoutConfig()));
