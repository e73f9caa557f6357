import { schemaOf } from '@rental/config';
import { Knex, openDatabase } from '@rental/db';
import type { Logger } from '@rental/logger';
import { migrations } from './migrations';

export { startPricing } from './service';
export { loadPricingConfig, pricingVariables } from './config';
export { seedPricing } from './data-access/seed';
export type { PricingSeed } from './data-access/seed';

/** The pricing schema, migrated; for the seed command. */
export function openPricingDatabase(url: string, log: Logger): Promise<Knex> {
  return openDatabase({ url, schema: schemaOf('pricing'), migrations, log });
}
