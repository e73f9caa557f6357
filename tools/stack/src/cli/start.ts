import path from 'node:path';
import { booleanVariable, loadConfig, platformVariables, portVariable } from '@rental/config';
import { runUntilSignal } from '@rental/http';
import { createLogger } from '@rental/logger';
import { DEMO_SEED_FILE, readSeedFile } from '../fixture';
import { deploymentIsEmpty } from '../seed';
import { startStack } from '../stack';

/** `npm start`: the whole stack on this machine, seeded with the demo fixture when empty. */
runUntilSignal('The stack', async () => {
  // In production the local simulators stand in for the outside parties only when
  // PRODUCTION_SIMULATORS=true says so (PRODUCTION-PATH section 9); without it every URL must be
  // given, as in a deployment, and a missing one stops the stack naming it.
  const config = loadConfig({
    ...platformVariables,
    PORT: portVariable(8080),
    SEED_DEMO: booleanVariable(true),
    PRODUCTION_SIMULATORS: booleanVariable(false),
  });
  const log = createLogger('stack', 'warn');
  const stateDirectory = path.resolve(
    __dirname,
    '..',
    '..',
    '..',
    '..',
    '.stack',
    `${config.API_ENVIRONMENT}-${new URL(config.DATABASE_URL).pathname.slice(1)}`,
  );
  const stack = await startStack({
    environment: config.API_ENVIRONMENT,
    portBase: config.SERVICE_PORT_BASE,
    gatewayPort: config.PORT,
    databaseUrl: config.DATABASE_URL,
    natsUrl: config.NATS_URL,
    stateDirectory,
    env: { PRODUCTION_SIMULATORS: String(config.PRODUCTION_SIMULATORS) },
    restartOnCrash: true,
    onCrash: (name, code, signal) =>
      process.stderr.write(`${name} exited (${signal ?? code}); restarting. Log: ${path.join(stateDirectory, 'logs', `${name}.log`)}\n`),
    log,
  });
  if (config.SEED_DEMO && (await deploymentIsEmpty(config.DATABASE_URL, log))) {
    const summary = await stack.seed(readSeedFile(DEMO_SEED_FILE));
    process.stdout.write(`Loaded the demo fixture: ${summary.partners} partners, ${summary.apiKeys} API keys.\n`);
  }
  process.stdout.write(`Partner Rental API (${config.API_ENVIRONMENT}) listening at ${stack.gatewayUrl}\n`);
  process.stdout.write(`Logs: ${stack.logDirectory}. Stop with Ctrl-C.\n`);
  return {
    stop: () => {
      process.stdout.write('Stopping…\n');
      return stack.stop();
    },
  };
});
