import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

describe('configuration at start', () => {
  it.each([
    ['gateway/dist/start.js', { DATABASE_URL: 'mysql://nope' }, 'invalid configuration: DATABASE_URL must be a URL with scheme postgres or postgresql'],
    ['services/pricing/dist/start.js', { API_ENVIRONMENT: 'staging' }, 'invalid configuration: API_ENVIRONMENT must be sandbox or production'],
    ['services/documents/dist/start.js', { S3_ENDPOINT: 'http://127.0.0.1:1', S3_ACCESS_KEY: 'k' }, 'invalid configuration: S3_SECRET_KEY is required'],
    ['services/notifications/dist/start.js', { API_ENVIRONMENT: 'production', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, 'invalid configuration: WEBHOOK_ALLOW_PRIVATE_URLS must not be true when API_ENVIRONMENT is production'],
  ])('when %s starts with a wrong value, then it stops with one line naming the variable', (entry, env, line) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(S3_|DATABASE_URL|API_ENVIRONMENT|WEBHOOK_)/.test(name)));
    const result = spawnSync(process.execPath, [path.join(root, entry)], { env: { ...clean, ...env }, encoding: 'utf8', timeout: 10_000 });
    expect(result.status).toBe(78);
    expect(result.stderr).toBe(`${line}\n`);
  });
});
