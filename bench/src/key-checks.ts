import { performance } from 'node:perf_hooks';
import { ApiKeyAuthenticator, LastUseRecorder, hashApiKey, refusalOf } from '@rental/gateway';

/**
 * What the key checks of issue 28 add to an authenticated request at the gateway, in process and
 * in the same run: the revocation/expiry/suspension check of a cached key (refusalOf) and marking
 * the key's last use in memory (LastUseRecorder.touch, flushed later in one statement), against
 * the SHA-256 of the key and the cached lookup every request already paid. No database: the
 * store answers from memory, and the cache is on, as in a gateway that listens for changes.
 */
const ROUNDS = 300_000;
const KEY = 'sbx_abcdefghijklmnopqrstuvwxyzABCDEFGH0a1B2c';

async function perCall(label: string, work: () => unknown | Promise<unknown>): Promise<{ label: string; ns: number }> {
  for (let index = 0; index < 20_000; index += 1) await work();
  const started = performance.now();
  for (let index = 0; index < ROUNDS; index += 1) await work();
  return { label, ns: ((performance.now() - started) * 1e6) / ROUNDS };
}

async function main(): Promise<void> {
  const state = {
    partner: { partnerId: 'acme', environment: 'sandbox', roles: ['api_user'] },
    revoked: false,
    expiresAt: Date.now() + 3_600_000,
    partnerSuspended: false,
  };
  const store = { findKey: async () => state, recordLastUse: async () => undefined };
  const lastUse = new LastUseRecorder(store);
  const withoutLastUse = new ApiKeyAuthenticator(store, 'sandbox', 600_000);
  const withLastUse = new ApiKeyAuthenticator(store, 'sandbox', 600_000, (hash) => lastUse.touch(hash));
  withoutLastUse.useCache(true);
  withLastUse.useCache(true);
  const now = Date.now();
  const rows = [
    await perCall('SHA-256 of the key (paid before issue 28 too)', () => hashApiKey(KEY)),
    await perCall('revocation, expiry and suspension check (refusalOf)', () => refusalOf(state, now)),
    await perCall('lastUsedAt in memory (LastUseRecorder.touch)', () => lastUse.touch('0123456789abcdef')),
    await perCall('authenticate a cached key, without lastUsedAt', () => withoutLastUse.authenticate(KEY)),
    await perCall('authenticate a cached key, with lastUsedAt', () => withLastUse.authenticate(KEY)),
  ];
  console.log(`| step | ns per request (mean of ${ROUNDS}) |\n| --- | ---: |`);
  for (const row of rows) console.log(`| ${row.label} | ${row.ns.toFixed(0)} |`);
}

void main();
