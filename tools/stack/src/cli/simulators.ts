import { loadConfig } from '@rental/config';
import { connectDatabase } from '@rental/db';
import { runUntilSignal } from '@rental/http';
import { HUB_STUB_SCHEMA } from '../hub-stub';
import { simulatorProcessVariables, startCreditBureauSimulator, startLenderSimulator, startSigningSimulator } from '../simulators';
import { lenderSecret } from '../stack';

/** The lender, signing and credit bureau simulators on their own, for docker compose's dev profile. */
runUntilSignal('simulators', async () => {
  const config = loadConfig(simulatorProcessVariables);
  const db = connectDatabase({ url: config.DATABASE_URL, schema: HUB_STUB_SCHEMA });
  const report = (message: string) => process.stderr.write(`${message}\n`);
  const running = [
    await startLenderSimulator({
      secretOf: (id) => lenderSecret(db, id),
      delayMs: config.LENDER_SIMULATOR_DELAY,
      port: config.LENDER_SIMULATOR_PORT,
      host: config.HOST,
      report,
    }),
    await startSigningSimulator({
      secret: config.SIGNING_WEBHOOK_SECRET,
      delayMs: config.SIGNING_SIMULATOR_DELAY,
      port: config.SIGNING_SIMULATOR_PORT,
      host: config.HOST,
      report,
    }),
    await startCreditBureauSimulator({ port: config.CREDIT_BUREAU_SIMULATOR_PORT, host: config.HOST }),
  ];
  process.stdout.write(`simulators listening at ${running.map((simulator) => simulator.url).join(', ')}\n`);
  return { stop: () => Promise.all(running.map((simulator) => simulator.close())).then(() => db.destroy()) };
});
