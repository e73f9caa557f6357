import type { Migration } from '@rental/db';
import * as cartsCheckoutQuoteRequests from './0001_carts_checkout_quote_requests';

export const migrations: Record<string, Migration> = {
  '0001_carts_checkout_quote_requests': cartsCheckoutQuoteRequests,
};
