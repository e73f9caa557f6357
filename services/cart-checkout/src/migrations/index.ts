import type { Migration } from '@rental/db';
import * as cartsCheckoutQuoteRequests from './0001_carts_checkout_quote_requests';
import * as quoteRequestStatus from './0003_quote_request_status';
import * as cartOptionRateNames from './0014_cart_option_rate_names';
import * as traceContext from './0021_trace_context';
import * as quoteRequestCaseRequests from './0024_quote_request_case_requests';

export const migrations: Record<string, Migration> = {
  '0001_carts_checkout_quote_requests': cartsCheckoutQuoteRequests,
  '0003_quote_request_status': quoteRequestStatus,
  '0014_cart_option_rate_names': cartOptionRateNames,
  '0021_trace_context': traceContext,
  '0024_quote_request_case_requests': quoteRequestCaseRequests,
};
