import { openCaseWorkflowDatabase, seedLenders } from '@rental/case-workflow';
import { ConfigurationError, schemaOf } from '@rental/config';
import { connectDatabase } from '@rental/db';
import { GATEWAY_SCHEMA, countPartners, openGatewayDatabase, seedPartnerIdentities } from '@rental/gateway';
import type { Logger } from '@rental/logger';
import { openPricingDatabase, seedPricing } from '@rental/pricing';
import type { SeedFile } from './fixture';
import { HUB_STUB_SCHEMA, seedHubStub } from './hub-stub';
import { IDENTITY_SCHEMA, seedOperators, seedPartnerUsers } from './identity-provider';

export interface SeedSummary {
  partners: number;
  apiKeys: number;
  skippedApiKeys: number;
  operators: number;
  partnerUsers: number;
}

/**
 * A lender without an intakeUrl is served by the lender simulator: in production only by the
 * explicit choice PRODUCTION_SIMULATORS, else the whole file is refused before anything is written.
 */
function refuseSimulatedLenders(environment: string, seed: SeedFile, productionSimulators: boolean): void {
  if (environment !== 'production' || productionSimulators) return;
  const simulated = seed.lenders.flatMap((lender, index) => (lender.intakeUrl ? [] : [`lenders[${index}].intakeUrl (${lender.id})`]));
  if (simulated.length > 0) {
    throw new ConfigurationError(
      `invalid seed: ${simulated.join(', ')} ${simulated.length === 1 ? 'is' : 'are'} required when API_ENVIRONMENT is production (PRODUCTION_SIMULATORS=true sends such lenders to the lender simulator)`,
    );
  }
}

/**
 * Loads a seed file into a deployment's stores: partners and key hashes into the gateway,
 * catalog, conditions, lenders and hubs into pricing, SLA files into the hub stub, lenders'
 * intake URLs and secrets into case-workflow (which calls them), operators (password hashes)
 * and partner users (password hashes) into the dev identity provider. Keys of the other
 * environment are skipped. Idempotent.
 */
export async function seedDeployment(
  databaseUrl: string,
  environment: string,
  seed: SeedFile,
  log: Logger,
  options: { productionSimulators: boolean },
): Promise<SeedSummary> {
  refuseSimulatedLenders(environment, seed, options.productionSimulators);
  const gatewayDb = await openGatewayDatabase(databaseUrl, log);
  const pricingDb = await openPricingDatabase(databaseUrl, log);
  const hubDb = connectDatabase({ url: databaseUrl, schema: HUB_STUB_SCHEMA });
  const caseWorkflowDb = await openCaseWorkflowDatabase(databaseUrl, log);
  const identityDb = connectDatabase({ url: databaseUrl, schema: IDENTITY_SCHEMA });
  try {
    await seedPricing(pricingDb, seed);
    await seedLenders(caseWorkflowDb, seed.lenders);
    await seedHubStub(hubDb, seed.distributionHubs);
    const operators = await seedOperators(identityDb, seed.operators);
    const partnerUsers = await seedPartnerUsers(identityDb, seed.partners);
    const loaded = await seedPartnerIdentities(gatewayDb, seed.partners, environment);
    const allKeys = seed.partners.reduce((sum, partner) => sum + partner.apiKeys.length, 0);
    return { partners: loaded.partners, apiKeys: loaded.keys, skippedApiKeys: allKeys - loaded.keys, operators, partnerUsers };
  } finally {
    await Promise.all([gatewayDb.destroy(), pricingDb.destroy(), hubDb.destroy(), caseWorkflowDb.destroy(), identityDb.destroy()]);
  }
}

/**
 * Adds a seed file's partners and distribution hubs to a deployment the stack has migrated and
 * seeded: their pricing profile and conditions, hubs, people and API keys; the catalog, lenders
 * and operators already there are left alone. Tests make partners of their own this way many times
 * a run, so it neither migrates nor re-checks the operators' password hashes.
 */
export async function seedPartners(databaseUrl: string, environment: string, seed: Pick<SeedFile, 'partners' | 'distributionHubs'>): Promise<void> {
  const gatewayDb = connectDatabase({ url: databaseUrl, schema: GATEWAY_SCHEMA });
  const pricingDb = connectDatabase({ url: databaseUrl, schema: schemaOf('pricing') });
  const hubDb = connectDatabase({ url: databaseUrl, schema: HUB_STUB_SCHEMA });
  const identityDb = connectDatabase({ url: databaseUrl, schema: IDENTITY_SCHEMA });
  try {
    await seedPricing(pricingDb, { sectors: [], categories: [], lenders: [], distributionHubs: seed.distributionHubs, partners: seed.partners });
    await seedHubStub(hubDb, seed.distributionHubs);
    await seedPartnerUsers(identityDb, seed.partners);
    await seedPartnerIdentities(gatewayDb, seed.partners, environment);
  } finally {
    await Promise.all([gatewayDb.destroy(), pricingDb.destroy(), hubDb.destroy(), identityDb.destroy()]);
  }
}

/** Whether no partner is loaded yet (the demo fixture is loaded into an empty deployment only). */
export async function deploymentIsEmpty(databaseUrl: string, log: Logger): Promise<boolean> {
  const db = await openGatewayDatabase(databaseUrl, log);
  try {
    return (await countPartners(db)) === 0;
  } finally {
    await db.destroy();
  }
}
