import type { Migration } from '@rental/db';
import * as webhooks from './0001_webhooks';
import * as endpointTools from './0007_ops21_endpoint_tools';

export const migrations: Record<string, Migration> = {
  '0001_webhooks': webhooks,
  '0007_ops21_endpoint_tools': endpointTools,
};
