import type { Knex } from '@rental/db';
import { openDatabase } from '@rental/db';
import type { Logger } from '@rental/logger';
import { GATEWAY_SCHEMA } from './gateway';
import { migrations } from './migrations';

export { startGateway, GATEWAY_SCHEMA } from './gateway';
/** For tests that migrate its schema step by step. */
export { migrations as gatewayMigrations } from './migrations';
export { loadGatewayConfig, gatewayVariables } from './config';
export { seedPartnerIdentities, countPartners } from './data-access/seed';
export type { PartnerIdentitySeed } from './data-access/seed';
export { hashApiKey } from './domain/api-key';
export { apiDescription, buildTag } from './entry-points/http/api-description';
export { ROUTES } from './domain/route-table';
export type { Route } from './domain/route-table';

/** The gateway's schema, migrated; for the seed command. */
export function openGatewayDatabase(url: string, log: Logger): Promise<Knex> {
  return openDatabase({ url, schema: GATEWAY_SCHEMA, migrations, log });
}
export { ApiKeyAuthenticator, refusalOf } from './domain/api-key';
export { LastUseRecorder } from './domain/last-use';
