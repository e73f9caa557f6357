import type { Migration } from '@rental/db';
import * as partnersAndKeys from './0001_partners_and_keys';
import * as rateLimits from './0008_rate_limits';
import * as partnerAccess from './0025_partner_access';

export const migrations: Record<string, Migration> = {
  '0001_partners_and_keys': partnersAndKeys,
  '0008_rate_limits': rateLimits,
  '0025_partner_access': partnerAccess,
};
