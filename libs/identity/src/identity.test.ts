import { SignJWT } from 'jose';
import { createSecretKey } from 'node:crypto';
import { IdentityKeys, IdentityRefused } from './index';

const SECRET = 'a-test-secret-of-at-least-32-characters';
const keys = new IdentityKeys(SECRET);

describe('signed identity', () => {
  it('when the gateway signs a partner, then a service reads back exactly that partner, roles and caller', async () => {
    const token = await keys.sign({ caller: 'gateway', partnerId: 'acme', roles: ['api_user'] });
    await expect(keys.verify(token)).resolves.toEqual({ caller: 'gateway', partnerId: 'acme', roles: ['api_user'] });
  });

  it('when no partner is asserted, then the identity carries none', async () => {
    const token = await keys.sign({ caller: 'gateway', roles: [] });
    await expect(keys.verify(token)).resolves.toEqual({ caller: 'gateway', partnerId: undefined, roles: [] });
  });

  it('when the same identity is signed within half the lifetime, then the same token serves; after it, or for another partner, roles or caller, another', async () => {
    let now = Date.parse('2026-11-25T10:00:00Z');
    const clocked = new IdentityKeys(SECRET, () => now);
    const first = await clocked.sign({ caller: 'gateway', partnerId: 'acme', roles: ['api_user'] });
    now += 29_000;
    expect(await clocked.sign({ caller: 'gateway', partnerId: 'acme', roles: ['api_user'] })).toBe(first);
    const others = await Promise.all([
      clocked.sign({ caller: 'gateway', partnerId: 'beta', roles: ['api_user'] }),
      clocked.sign({ caller: 'gateway', partnerId: 'acme', roles: [] }),
      clocked.sign({ caller: 'cart-checkout', partnerId: 'acme', roles: ['api_user'] }),
    ]);
    expect(new Set([first, ...others]).size).toBe(4);
    now += 2_000;
    const renewed = await clocked.sign({ caller: 'gateway', partnerId: 'acme', roles: ['api_user'] });
    expect(renewed).not.toBe(first);
    await expect(clocked.verify(renewed)).resolves.toEqual({ caller: 'gateway', partnerId: 'acme', roles: ['api_user'] });
  });

  it('when a verified token reaches its expiry, then it is refused although it was believed before', async () => {
    let now = Date.parse('2026-11-25T10:00:00Z');
    const clocked = new IdentityKeys(SECRET, () => now);
    const token = await clocked.sign({ caller: 'gateway', partnerId: 'acme', roles: [] });
    await expect(clocked.verify(token)).resolves.toEqual({ caller: 'gateway', partnerId: 'acme', roles: [] });
    now += 59_000;
    await expect(clocked.verify(token)).resolves.toEqual({ caller: 'gateway', partnerId: 'acme', roles: [] });
    // Past exp and past jose's 5 s of clock tolerance: the kept verification no longer answers.
    now += 7_000;
    await expect(clocked.verify(token)).rejects.toBeInstanceOf(IdentityRefused);
  });

  it('when a token is missing, signed with another secret, altered or expired, then it is refused', async () => {
    const other = new IdentityKeys('another-secret-of-at-least-32-characters');
    const foreign = await other.sign({ caller: 'gateway', partnerId: 'acme', roles: [] });
    const genuine = await keys.sign({ caller: 'gateway', partnerId: 'acme', roles: [] });
    const [header, , signature] = genuine.split('.');
    const altered = `${header}.${Buffer.from(JSON.stringify({ iss: 'gateway', sub: 'beta', roles: [], exp: 4102444800 })).toString('base64url')}.${signature}`;
    const expired = await new SignJWT({ roles: [] })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('gateway')
      .setSubject('acme')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 120)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(createSecretKey(Buffer.from(SECRET)));
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"iss":"gateway","sub":"acme"}').toString('base64url')}.`;
    for (const token of [undefined, '', foreign, altered, expired, unsigned, 'acme']) {
      await expect(keys.verify(token)).rejects.toBeInstanceOf(IdentityRefused);
    }
  });

  it('when the secret is shorter than 32 characters, then no keys are made', () => {
    expect(() => new IdentityKeys('short')).toThrow('the internal identity secret must be at least 32 characters');
  });

  // The figure in docs/reliability.md: one sign plus one verify per proxied request.
  it('when signed and verified many times, then one round stays within two milliseconds even under jest', async () => {
    // Warm up first: the first rounds pay for compiling jose under the jest sandbox.
    for (let i = 0; i < 2000; i += 1) await keys.verify(await keys.sign({ caller: 'gateway', partnerId: 'acme', roles: [] }));
    const rounds = 2000;
    const started = process.hrtime.bigint();
    for (let i = 0; i < rounds; i += 1) await keys.verify(await keys.sign({ caller: 'gateway', partnerId: `partner-${i}`, roles: ['api_user'] }));
    const microseconds = Number(process.hrtime.bigint() - started) / 1000 / rounds;
    process.stdout.write(`sign+verify: ${microseconds.toFixed(1)} µs per request\n`);
    expect(microseconds).toBeLessThan(2000);
  });
});
