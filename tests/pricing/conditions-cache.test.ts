import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { DEMO_SEED_FILE, readSeedFile } from '@rental/stack/fixture';
import { ApiClient, Stack, bootStack, fixturePartnerKey, shutdownStack, waitFor } from '@rental/testkit';

// Pricing keeps conditions in memory; a TTL of 10 minutes here means only the seed's
// notification, or the listener's loss, can explain a fresh answer within this test.
const SEED_CLI = path.resolve(__dirname, '..', '..', 'tools', 'stack', 'dist', 'cli', 'seed.js');
const LISTENER = 'listen pricing_conditions_changed';
const leasing36 = { durations: [36], calculationTypes: ['leasing'], acquisitionCost: 1000, productSector: 'IT_AND_OFFICE_EQUIPMENT' };

let stack: Stack;
let acme: ApiClient;
let db: Client;
let scratch: string;

beforeAll(async () => {
  stack = await bootStack({ env: { PRICING_CONDITIONS_CACHE_TTL_MS: '600000' } });
  acme = new ApiClient(stack.gatewayUrl, fixturePartnerKey('acme'));
  db = new Client({ connectionString: stack.databaseUrl });
  await db.connect();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'conditions-cache-'));
}, 120_000);

afterAll(async () => {
  await db?.end();
  if (stack) await shutdownStack(stack);
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** The seed command (its own process) with the fixture, acme's 0 % leasing factor for 36 months replaced. */
async function seedAcmeLeasing36(factor: number): Promise<void> {
  const seed = readSeedFile(DEMO_SEED_FILE);
  const acmeSeed = seed.partners.find((partner) => partner.id === 'acme');
  if (!acmeSeed?.rentalFactors.leasing?.['0']) throw new Error('the fixture has no 0 % leasing list for acme');
  acmeSeed.rentalFactors.leasing['0']['36'] = factor;
  const file = path.join(scratch, `seed-${factor}.json`);
  fs.writeFileSync(file, JSON.stringify(seed));
  await promisify(execFile)(process.execPath, [SEED_CLI, file], {
    env: { ...process.env, DATABASE_URL: stack.databaseUrl, API_ENVIRONMENT: stack.environment },
  });
}

async function leasing36Offer(): Promise<{ rentalFactor: string; rate: number }> {
  const response = await acme.post('/api/calculate/estimate', leasing36);
  expect(response.status).toBe(201);
  expect(response.json.offers).toHaveLength(1);
  return { rentalFactor: response.json.offers[0].rentalFactor, rate: response.json.offers[0].rate };
}

async function listenerPids(): Promise<number[]> {
  const rows = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND state = $2', [
    LISTENER,
    'idle',
  ]);
  return rows.rows.map((row) => row.pid);
}

describe('partner conditions kept in memory by pricing', () => {
  it('when the seed changes a factor, then the very next estimate prices with the new one', async () => {
    // 1000.00 × 3.180 % = 31.80, plus acme's 2.50 monthly surcharge; asked twice, so the second is served from memory.
    expect(await leasing36Offer()).toEqual({ rentalFactor: '3.180', rate: 34.3 });
    expect(await leasing36Offer()).toEqual({ rentalFactor: '3.180', rate: 34.3 });

    await seedAcmeLeasing36(3.5);
    // 1000.00 × 3.500 % = 35.00, plus 2.50
    expect(await leasing36Offer()).toEqual({ rentalFactor: '3.500', rate: 37.5 });

    await seedAcmeLeasing36(3.18);
    expect(await leasing36Offer()).toEqual({ rentalFactor: '3.180', rate: 34.3 });
  });

  it('when pricing loses its listening connection and a factor changes meanwhile, then the answer is fresh, and after it listens again changes still arrive', async () => {
    expect(await leasing36Offer()).toEqual({ rentalFactor: '3.180', rate: 34.3 });
    const [listener] = await listenerPids();
    expect(listener).toEqual(expect.any(Number));

    // With a timeout it waits until the backend has gone (and so has told pricing), not only signalled it.
    const terminated = await db.query<{ gone: boolean }>(
      'SELECT pg_terminate_backend(pid, 5000) AS gone FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [LISTENER],
    );
    expect(terminated.rows).toEqual([{ gone: true }]);
    // A change nobody announces: whatever pricing kept before the loss must not answer.
    const updated = await db.query(
      `UPDATE pricing.rental_factors SET factor_milli = 3400 WHERE partner_id = 'acme' AND financing_type = 'leasing' AND commission = 0 AND duration = 36`,
    );
    expect(updated.rowCount).toBe(1);
    // 1000.00 × 3.400 % = 34.00, plus 2.50
    expect(await leasing36Offer()).toEqual({ rentalFactor: '3.400', rate: 36.5 });

    const [reconnected] = await waitFor(
      async () => {
        const pids = await listenerPids();
        return pids.length === 1 && pids[0] !== listener ? pids : undefined;
      },
      { timeoutMs: 10_000, what: 'pricing to listen again' },
    );
    expect(reconnected).not.toBe(listener);
    expect(await leasing36Offer()).toEqual({ rentalFactor: '3.400', rate: 36.5 });

    await seedAcmeLeasing36(3.6);
    // 1000.00 × 3.600 % = 36.00, plus 2.50
    expect(await leasing36Offer()).toEqual({ rentalFactor: '3.600', rate: 38.5 });
  });
});
