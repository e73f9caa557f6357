import { Knex, openDatabase } from '@rental/db';
import type { Logger } from '@rental/logger';
import { migrations } from './migrations';
import { PRICING_SCHEMA } from './service';

export { startPricing, PRICING_SCHEMA } from './service';
export { loadPricingConfig, pricingVariables } from './config';
export { seedPricing } from './data-access/seed';
export type { PricingSeed } from './data-access/seed';

/** The pricing schema, migrated; for the seed command. */
export function openPricingDatabase(url: string, log: Logger): Promise<Knex> {
  return openDatabase({ url, schema: PRICING_SCHEMA, migrations, log });
}
