import type { Migration } from '@rental/db';
import * as partnersAndKeys from './0001_partners_and_keys';

export const migrations: Record<string, Migration> = {
  '0001_partners_and_keys': partnersAndKeys,
};
