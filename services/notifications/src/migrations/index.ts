import type { Migration } from '@rental/db';
import * as webhooks from './0001_webhooks';
import * as mailRequests from './0006_mail_requests';
import * as endpointTools from './0007_secret_rotation_and_redelivery';
import * as traceContext from './0021_trace_context';
import * as claimOrderIndex from './0022_delivery_claim_order_index';
import * as webhookToolRateLimits from './0028_webhook_tool_rate_limits';

export const migrations: Record<string, Migration> = {
  '0001_webhooks': webhooks,
  '0006_mail_requests': mailRequests,
  '0007_secret_rotation_and_redelivery': endpointTools,
  '0021_trace_context': traceContext,
  '0022_delivery_claim_order_index': claimOrderIndex,
  '0028_webhook_tool_rate_limits': webhookToolRateLimits,
};
