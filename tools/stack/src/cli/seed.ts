import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError, booleanVariable, loadConfig, platformVariables } from '@rental/config';
import { createLogger } from '@rental/logger';
import { readSeedFile } from '../fixture';
import { seedDeployment } from '../seed';

/**
 * `npm run seed -- [--if-present] <file>`: loads a seed file into the deployment DATABASE_URL
 * names. `--if-present` makes a missing file a no-op: the sandbox's seed Job mounts its seed
 * file from an optional Secret, since partners can also be onboarded through the back office.
 */
async function main(): Promise<void> {
  const ifPresent = process.argv[2] === '--if-present';
  const file = process.argv[ifPresent ? 3 : 2];
  if (!file) {
    process.stderr.write('usage: npm run seed -- [--if-present] <seed file>\n');
    process.exit(64);
  }
  const config = loadConfig({
    API_ENVIRONMENT: platformVariables.API_ENVIRONMENT,
    DATABASE_URL: platformVariables.DATABASE_URL,
    PRODUCTION_SIMULATORS: booleanVariable(false),
  });
  // npm runs scripts from the repository root; a relative path is meant from where the user typed it.
  const resolved = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  if (ifPresent && !fs.existsSync(resolved)) {
    process.stdout.write(`No seed file at ${resolved}: nothing loaded.\n`);
    return;
  }
  const summary = await seedDeployment(config.DATABASE_URL, config.API_ENVIRONMENT, readSeedFile(resolved), createLogger('seed', 'warn'), {
    productionSimulators: config.PRODUCTION_SIMULATORS,
  });
  process.stdout.write(
    `Seeded ${resolved} into ${config.API_ENVIRONMENT}: ${summary.partners} partners, ${summary.apiKeys} API keys (${summary.skippedApiKeys} of another environment skipped), ${summary.operators} operators, ${summary.partnerUsers} partner users.\n`,
  );
}

main().catch((error: Error) => {
  process.stderr.write(`seed failed: ${error.message}\n`);
  process.exit(error instanceof ConfigurationError ? 78 : 1);
});
