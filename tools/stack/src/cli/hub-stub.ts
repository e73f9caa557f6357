import { z } from 'zod';
import { loadConfig, platformVariables, portVariable } from '@rental/config';
import { connectDatabase } from '@rental/db';
import { runUntilSignal } from '@rental/http';
import { HUB_STUB_SCHEMA, startHubStub } from '../hub-stub';

/** The hub stub on its own, for docker-compose: serves the SLA files loaded by `npm run seed`. */
runUntilSignal('hub stub', async () => {
  const config = loadConfig({ DATABASE_URL: platformVariables.DATABASE_URL, HUB_STUB_PORT: portVariable(8080), HOST: z.string().default('0.0.0.0') });
  const db = connectDatabase({ url: config.DATABASE_URL, schema: HUB_STUB_SCHEMA });
  const hub = await startHubStub(db, config.HUB_STUB_PORT, config.HOST);
  process.stdout.write(`hub stub listening at ${hub.url}\n`);
  return { stop: () => hub.close().then(() => db.destroy()) };
});
