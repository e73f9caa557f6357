import type { Migration } from '@rental/db';
import * as webhooks from './0001_webhooks';

export const migrations: Record<string, Migration> = {
  '0001_webhooks': webhooks,
};
