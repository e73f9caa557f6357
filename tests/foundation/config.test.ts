import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const SECRET = { INTERNAL_IDENTITY_SECRET: 'a-secret-of-this-test-only-32-characters' };
// A process that stops at its configuration still loads its modules first: tens of seconds on a loaded machine.
const START_TIMEOUT_MS = 40_000;

describe('configuration at start', () => {
  it.each([
    [
      'gateway/dist/start.js',
      { ...SECRET, DATABASE_URL: 'mysql://nope' },
      'invalid configuration: DATABASE_URL must be a URL with scheme postgres or postgresql',
    ],
    ['services/pricing/dist/start.js', { ...SECRET, API_ENVIRONMENT: 'staging' }, 'invalid configuration: API_ENVIRONMENT must be sandbox or production'],
    [
      'services/documents/dist/start.js',
      { ...SECRET, S3_ENDPOINT: 'http://127.0.0.1:1', S3_ACCESS_KEY: 'k' },
      'invalid configuration: S3_SECRET_KEY is required',
    ],
    [
      'services/case-workflow/dist/start.js',
      { ...SECRET, DOCUMENT_DUE_AFTER: '7' },
      'invalid configuration: DOCUMENT_DUE_AFTER must be a duration such as 30s, 15m, 12h or 14d',
    ],
    ['services/case-workflow/dist/start.js', { ...SECRET, LENDER_MAX_ATTEMPTS: '0' }, 'invalid configuration: LENDER_MAX_ATTEMPTS must be a positive integer'],
    [
      'services/case-workflow/dist/start.js',
      { ...SECRET, API_ENVIRONMENT: 'production', SIGNING_WEBHOOK_SECRET: 'plain' },
      'invalid configuration: SIGNING_WEBHOOK_SECRET must be a whsec_ secret (whsec_ and base64)',
    ],
    ['gateway/dist/start.js', {}, 'invalid configuration: INTERNAL_IDENTITY_SECRET is required'],
    ['services/case-workflow/dist/start.js', {}, 'invalid configuration: INTERNAL_IDENTITY_SECRET is required'],
    ['services/pricing/dist/start.js', { INTERNAL_IDENTITY_SECRET: 'short' }, 'invalid configuration: INTERNAL_IDENTITY_SECRET must be at least 32 characters'],
    [
      'gateway/dist/start.js',
      { ...SECRET, TRUSTED_PROXIES: '10.0.0.0/8,not-an-address' },
      'invalid configuration: TRUSTED_PROXIES must be a comma-separated list of IP addresses or CIDR ranges',
    ],
  ])('when %s starts with a wrong or missing value, then it stops with one line naming the variable', (entry, env, line) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) => !/^(S3_|DATABASE_URL|API_ENVIRONMENT|WEBHOOK_|DOCUMENT_|LENDER_|SIGNING_|INTERNAL_IDENTITY_SECRET|TRUSTED_PROXIES)/.test(name),
      ),
    );
    const result = spawnSync(process.execPath, [path.join(root, entry)], { env: { ...clean, ...env }, encoding: 'utf8', timeout: START_TIMEOUT_MS });
    expect(result.status).toBe(78);
    expect(result.stderr).toBe(`${line}\n`);
  });

  it('when notifications starts in production with WEBHOOK_ALLOW_PRIVATE_URLS=true, then it starts with one warning line instead of refusing', () => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(DATABASE_URL|API_ENVIRONMENT|WEBHOOK_|SMTP_)/.test(name)));
    // No database answers on port 1: the process gets past its configuration, warns, and then fails to connect.
    const result = spawnSync(process.execPath, [path.join(root, 'services/notifications/dist/start.js')], {
      env: {
        ...clean,
        ...SECRET,
        API_ENVIRONMENT: 'production',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
        LOG_LEVEL: 'silent',
      },
      encoding: 'utf8',
      timeout: START_TIMEOUT_MS,
    });
    expect(result.status).not.toBe(78);
    expect(result.stderr.split('\n')[0]).toBe(
      "warning: WEBHOOK_ALLOW_PRIVATE_URLS is true in production: partners' webhooks may go to http and loopback addresses",
    );
  });
});
