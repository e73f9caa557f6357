import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const SECRET = { INTERNAL_IDENTITY_SECRET: 'a-secret-of-this-test-only-32-characters' };

describe('configuration at start', () => {
  it.each([
    ['gateway/dist/start.js', { ...SECRET, DATABASE_URL: 'mysql://nope' }, 'invalid configuration: DATABASE_URL must be a URL with scheme postgres or postgresql'],
    ['services/pricing/dist/start.js', { ...SECRET, API_ENVIRONMENT: 'staging' }, 'invalid configuration: API_ENVIRONMENT must be sandbox or production'],
    ['services/documents/dist/start.js', { ...SECRET, S3_ENDPOINT: 'http://127.0.0.1:1', S3_ACCESS_KEY: 'k' }, 'invalid configuration: S3_SECRET_KEY is required'],
    ['services/notifications/dist/start.js', { ...SECRET, API_ENVIRONMENT: 'production', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, 'invalid configuration: WEBHOOK_ALLOW_PRIVATE_URLS must not be true when API_ENVIRONMENT is production'],
    ['gateway/dist/start.js', {}, 'invalid configuration: INTERNAL_IDENTITY_SECRET is required'],
    ['services/case-workflow/dist/start.js', {}, 'invalid configuration: INTERNAL_IDENTITY_SECRET is required'],
    ['services/pricing/dist/start.js', { INTERNAL_IDENTITY_SECRET: 'short' }, 'invalid configuration: INTERNAL_IDENTITY_SECRET must be at least 32 characters'],
    ['gateway/dist/start.js', { ...SECRET, TRUSTED_PROXIES: '10.0.0.0/8,not-an-address' }, 'invalid configuration: TRUSTED_PROXIES must be a comma-separated list of IP addresses or CIDR ranges'],
  ])('when %s starts with a wrong or missing value, then it stops with one line naming the variable', (entry, env, line) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(S3_|DATABASE_URL|API_ENVIRONMENT|WEBHOOK_|INTERNAL_IDENTITY_SECRET|TRUSTED_PROXIES)/.test(name)));
    const result = spawnSync(process.execPath, [path.join(root, entry)], { env: { ...clean, ...env }, encoding: 'utf8', timeout: 10_000 });
    expect(result.status).toBe(78);
    expect(result.stderr).toBe(`${line}\n`);
  });
});
