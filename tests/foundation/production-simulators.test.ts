import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ensureDatabaseExists } from '@rental/db';
import { dropDatabase } from '@rental/testkit';
import { rows } from '../support/database';

const root = path.resolve(__dirname, '..', '..');
const POSTGRES = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const PRODUCTION = {
  INTERNAL_IDENTITY_SECRET: 'a-secret-of-this-test-only-32-characters',
  API_ENVIRONMENT: 'production',
  SIGNING_WEBHOOK_SECRET: 'whsec_dGhpcy10ZXN0LW9ubHktc2lnbmluZy1zZWNyZXQ=',
  // No database answers on port 1: a process that gets past its configuration fails to connect.
  DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
  LOG_LEVEL: 'silent',
};
const OWN =
  /^(DATABASE_URL|API_ENVIRONMENT|SIGNING_|CREDIT_BUREAU_URL|LENDER_|PRODUCTION_SIMULATORS|INTERNAL_IDENTITY_SECRET|LOG_LEVEL|.*_GRPC_ADDR|.*_HTTP_URL)$/;
const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !OWN.test(name)));

// The seed migrates every schema of a new database first: on a loaded machine that takes tens of seconds.
const RUN_TIMEOUT_MS = 90_000;

function run(entry: string, env: Record<string, string>, args: string[] = []) {
  const result = spawnSync(process.execPath, [path.join(root, entry), ...args], { env: { ...clean, ...env }, encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
  return { status: result.status, stderrLines: result.stderr.split('\n').filter(Boolean) };
}

const CASE_WORKFLOW = 'services/case-workflow/dist/start.js';
const SEED = 'tools/stack/dist/cli/seed.js';
const REQUIRED = (variable: string) => `${variable} is required when API_ENVIRONMENT is production`;

describe('simulators in production are an explicit choice', () => {
  it('when case-workflow starts in production without the signing provider and credit bureau URLs, then it exits 78 with one line naming both', () => {
    expect(run(CASE_WORKFLOW, PRODUCTION)).toEqual({
      status: 78,
      stderrLines: [
        `invalid configuration: ${REQUIRED('SIGNING_PROVIDER_URL')}; ${REQUIRED('CREDIT_BUREAU_URL')} (PRODUCTION_SIMULATORS=true uses the local simulators instead)`,
      ],
    });
  });

  it('when only the credit bureau is named, then the line names the signing provider alone', () => {
    expect(run(CASE_WORKFLOW, { ...PRODUCTION, CREDIT_BUREAU_URL: 'https://bureau.example/api' })).toEqual({
      status: 78,
      stderrLines: [`invalid configuration: ${REQUIRED('SIGNING_PROVIDER_URL')} (PRODUCTION_SIMULATORS=true uses the local simulators instead)`],
    });
  });

  it('when both outside parties are named, then case-workflow gets past its configuration without a warning', () => {
    const result = run(CASE_WORKFLOW, { ...PRODUCTION, SIGNING_PROVIDER_URL: 'https://signing.example/api', CREDIT_BUREAU_URL: 'https://bureau.example/api' });

    expect(result.status).not.toBe(78);
    expect(result.stderrLines.filter((line) => /PRODUCTION_SIMULATORS|invalid configuration/.test(line))).toEqual([]);
  });

  it('when PRODUCTION_SIMULATORS=true, then case-workflow starts with the simulators and one warning line naming what they stand in for', () => {
    const result = run(CASE_WORKFLOW, { ...PRODUCTION, PRODUCTION_SIMULATORS: 'true', CREDIT_BUREAU_URL: 'https://bureau.example/api' });

    expect(result.status).not.toBe(78);
    expect(result.stderrLines[0]).toBe(
      'warning: PRODUCTION_SIMULATORS is true in production: the local simulators stand in for SIGNING_PROVIDER_URL, lenders without an intakeUrl',
    );
  });

  it('when PRODUCTION_SIMULATORS is not true or false, then case-workflow refuses it by name', () => {
    expect(run(CASE_WORKFLOW, { ...PRODUCTION, PRODUCTION_SIMULATORS: 'yes' })).toEqual({
      status: 78,
      stderrLines: ['invalid configuration: PRODUCTION_SIMULATORS must be true or false'],
    });
  });

  it.each([
    ['gateway/dist/start.js', { CASE_WORKFLOW_HTTP_URL: 'case-workflow:8080' }, 'CASE_WORKFLOW_HTTP_URL must be a URL with scheme http or https'],
    [CASE_WORKFLOW, { DOCUMENTS_GRPC_ADDR: 'http://documents:50051' }, 'DOCUMENTS_GRPC_ADDR must be host:port'],
    ['services/backoffice/dist/start.js', { PRICING_GRPC_ADDR: 'pricing' }, 'PRICING_GRPC_ADDR must be host:port'],
  ])('when %s is given a malformed peer address, then it exits 78 naming the variable', (entry, env, line) => {
    expect(run(entry, { ...PRODUCTION, SIGNING_PROVIDER_URL: 'https://signing.example/api', CREDIT_BUREAU_URL: 'https://bureau.example/api', ...env })).toEqual(
      { status: 78, stderrLines: [`invalid configuration: ${line}`] },
    );
  });

  describe('the seed command', () => {
    const databaseUrl = `${POSTGRES}/rental_test_seed_${randomBytes(4).toString('hex')}`;

    beforeAll(() => ensureDatabaseExists(databaseUrl));
    afterAll(() => dropDatabase(databaseUrl));

    it(
      'when the fixture with lenders without an intakeUrl is seeded into production, then it is refused by name and nothing is written; with PRODUCTION_SIMULATORS=true it loads',
      async () => {
        const schemas = async () =>
          (
            await rows<{ name: string }>(
              databaseUrl,
              "SELECT nspname AS name FROM pg_namespace WHERE nspname IN ('gateway', 'pricing', 'case_workflow') ORDER BY 1",
            )
          ).map((row) => row.name);

        const refused = run(SEED, { ...PRODUCTION, DATABASE_URL: databaseUrl }, [path.join(root, 'fixtures', 'seed.json')]);
        const schemasAfterRefusal = await schemas();
        const loaded = run(SEED, { ...PRODUCTION, DATABASE_URL: databaseUrl, PRODUCTION_SIMULATORS: 'true' }, [path.join(root, 'fixtures', 'seed.json')]);

        expect(refused).toEqual({
          status: 78,
          stderrLines: [
            'seed failed: invalid seed: lenders[0].intakeUrl (lender-a), lenders[1].intakeUrl (lender-b) are required when API_ENVIRONMENT is production (PRODUCTION_SIMULATORS=true sends such lenders to the lender simulator)',
          ],
        });
        expect(schemasAfterRefusal).toEqual([]);
        expect(loaded.status).toBe(0);
        expect(await rows(databaseUrl, 'SELECT id, intake_url FROM lenders ORDER BY id', [], 'case_workflow')).toEqual([
          { id: 'lender-a', intake_url: null },
          { id: 'lender-b', intake_url: null },
        ]);
      },
      2 * RUN_TIMEOUT_MS,
    );
  });
});
