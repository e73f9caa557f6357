import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { dropDatabase } from '@rental/testkit';
import { DEMO_SEED_FILE, readSeedFile } from '@rental/stack/fixture';

const repositoryRoot = path.resolve(__dirname, '..', '..');
const databaseUrl = `postgres://postgres@127.0.0.1:5432/rental_seed_${randomBytes(4).toString('hex')}`;

function runSeed(environment: string, args = ['fixtures/seed.json'], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync('npm', ['run', '--silent', 'seed', '--', ...args], {
    cwd: repositoryRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, API_ENVIRONMENT: environment, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function snapshot(): Promise<Record<string, unknown[]>> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = [
      'case_workflow.lenders',
      'gateway.partners',
      'gateway.api_keys',
      'pricing.sectors',
      'pricing.categories',
      'pricing.partners',
      'pricing.rental_factors',
      'pricing.residual_values',
      'pricing.lenders',
      'pricing.distribution_hubs',
      'hub_stub.sla_files',
      'identity_dev.operators',
      'identity_dev.partner_users',
    ];
    const result: Record<string, unknown[]> = {};
    for (const table of tables)
      result[table] = (await client.query(`SELECT * FROM ${table} ORDER BY 1, 2`)).rows.map((row) => ({ ...row, created_at: undefined }));
    return result;
  } finally {
    await client.end();
  }
}

afterAll(() => dropDatabase(databaseUrl));

describe('npm run seed', () => {
  it('when the fixture is loaded twice, then it is loaded once and keys of the other environment are skipped', async () => {
    const first = runSeed('sandbox');
    expect(first).toContain('3 partners, 4 API keys (4 of another environment skipped), 3 operators, 5 partner users.');
    const afterFirst = await snapshot();
    runSeed('sandbox');
    const afterSecond = await snapshot();
    expect(afterSecond).toEqual(afterFirst);
    expect(afterFirst['gateway.partners']).toHaveLength(3);
    expect(afterFirst['gateway.api_keys']).toHaveLength(4);
    expect(afterFirst['gateway.api_keys']!.every((row: any) => row.environment === 'sandbox' && /^[0-9a-f]{64}$/.test(row.key_hash))).toBe(true);
    const fixture = readSeedFile(DEMO_SEED_FILE);
    const factorCount = fixture.partners.flatMap((p) =>
      Object.values(p.rentalFactors).flatMap((tiers) => Object.values(tiers).flatMap((durations) => Object.keys(durations))),
    ).length;
    expect(factorCount).toBe(43);
    expect(afterFirst['pricing.rental_factors']).toHaveLength(factorCount);
    expect(afterFirst['hub_stub.sla_files']).toHaveLength(4);
    expect(
      afterFirst['identity_dev.operators']!.map((row: any) => [
        row.id,
        row.roles,
        /^scrypt\$/.test(row.password_hash),
        row.password_hash.includes(fixture.operators.find((o) => o.id === row.id)?.password),
      ]),
    ).toEqual(fixture.operators.map((operator) => [operator.id, operator.roles, true, false]).sort());
    // Partner users as operators: hashed passwords (never the password), each with its partner.
    const users = fixture.partners.flatMap((partner) => partner.users.map((user) => ({ ...user, partnerId: partner.id })));
    expect(
      afterFirst['identity_dev.partner_users']!.map((row: any) => [
        row.id,
        row.partner_id,
        row.roles,
        /^scrypt\$/.test(row.password_hash),
        row.password_hash.includes(users.find((u) => u.id === row.id)?.password),
      ]),
    ).toEqual(users.map((user) => [user.id, user.partnerId, user.roles, true, false]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
    expect(afterFirst['case_workflow.lenders']!.map((row: any) => [row.id, row.name, row.intake_url, row.webhook_secret])).toEqual(
      fixture.lenders.map((lender) => [lender.id, lender.name, lender.intakeUrl, lender.webhookSecret]),
    );
  });

  it('when --if-present names a file that does not exist, then nothing is loaded and the command succeeds; without it, the command fails', async () => {
    const missing = path.join(repositoryRoot, 'fixtures', 'no-such-seed.json');

    const output = runSeed('sandbox', ['--if-present', missing]);

    expect(output).toBe(`No seed file at ${missing}: nothing loaded.\n`);
    expect(() => runSeed('sandbox', [missing])).toThrow(/seed failed: ENOENT/);
  });

  it('when lenders are loaded, then their secrets are never printed', () => {
    // The fixture's lenders have no intakeUrl: production takes them only for the lender simulator.
    const output = runSeed('production', undefined, { PRODUCTION_SIMULATORS: 'true' });
    for (const lender of readSeedFile(DEMO_SEED_FILE).lenders) expect(output).not.toContain(lender.webhookSecret);
  });
});
