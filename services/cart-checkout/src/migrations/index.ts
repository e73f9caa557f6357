import type { Migration } from '@rental/db';
import * as cartsCheckoutQuoteRequests from './0001_carts_checkout_quote_requests';
import * as quoteRequestStatus from './0003_spec19_quote_request_status';

export const migrations: Record<string, Migration> = {
  '0001_carts_checkout_quote_requests': cartsCheckoutQuoteRequests,
  '0003_spec19_quote_request_status': quoteRequestStatus,
};
