import { SignJWT, generateKeyPair } from 'jose';
import type { Stack } from '@rental/testkit';
import { TestIssuer, unsigned } from '../support/test-issuer';
import { Ops, expectProblem } from './support/kit';

export const operatorIssuer = new TestIssuer({ subject: 'op-vera', audience: 'rental-ops', claims: { roles: ['viewer'], name: 'Vera Viewer' } });

/**
 * Token verification against an issuer the test controls; the stack runs in production, where the
 * back office works as in the sandbox. Run by production/shared-stack.test.ts, on a production
 * stack whose OPERATOR_ISSUER_URL is operatorIssuer's.
 */
export function operatorIdentitySuite(production: { readonly stack: Stack }): void {
  describe('operator identity (production, an issuer the test controls)', () => {
    const issuer = operatorIssuer;

    const queueWith = (token: string | null) => new Ops(token, production.stack).get('/ops/v1/cases');

    it('when the console asks for the session config, then it names the configured issuer, the audience and the console client without a token', async () => {
      const response = await fetch(`${production.stack.gatewayUrl}/ops/v1/session-config`);

      expect([response.status, await response.json()]).toEqual([200, { issuer: issuer.url, audience: 'rental-ops', consoleClientId: 'console' }]);
    });

    it('when a token of the issuer for the audience with the viewer role comes, then the queue answers 200', async () => {
      const response = await queueWith(await issuer.mint());

      expect([response.status, Array.isArray(response.json)]).toEqual([200, true]);
    });

    it.each([
      ['no token', async () => null],
      [
        'a tampered token',
        async () => {
          const [header, payload, signature] = (await issuer.mint()).split('.');
          const changed = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload as string, 'base64url').toString()), roles: ['approver'] })).toString(
            'base64url',
          );
          return `${header}.${changed}.${signature}`;
        },
      ],
      ['a token with alg none', async () => unsigned(await issuer.mint())],
      ['an expired token', async () => issuer.mint({}, { expiresIn: Math.floor(Date.now() / 1000) - 60 })],
      ['a token for another audience', async () => issuer.mint({}, { audience: 'partner-api' })],
      ['a token of another issuer', async () => issuer.mint({}, { issuer: 'https://idp.elsewhere.example' })],
      [
        'a token signed with a key the issuer never published',
        async () => {
          const { privateKey } = await generateKeyPair('RS256');
          return new SignJWT({ roles: ['viewer'] })
            .setProtectedHeader({ alg: 'RS256', kid: 'key-1' })
            .setSubject('op-vera')
            .setIssuer(issuer.url)
            .setAudience('rental-ops')
            .setExpirationTime('10m')
            .sign(privateKey);
        },
      ],
    ])('when %s comes, then the back office answers 401 with WWW-Authenticate: Bearer', async (_what, token) => {
      const response = await queueWith(await token());

      expectProblem(response, 401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="rental-ops"/);
    });

    it('when the issuer rotates to a new key, then a token with its new kid is verified after one more JWKS fetch', async () => {
      await queueWith(await issuer.mint());
      const before = issuer.jwksFetches;
      const kid = await issuer.addKey();
      // The back office fetches the key set at most once a second.
      await new Promise((resolve) => setTimeout(resolve, 1100));

      const response = await queueWith(await issuer.mint({}, { kid }));

      expect([response.status, issuer.jwksFetches]).toEqual([200, before + 1]);
    });

    it('when a viewer cancels, even an unknown case with a malformed body, then the answer is 403 before the body or the case is looked at', async () => {
      const ops = new Ops(await issuer.mint(), production.stack);

      const response = await ops.postRaw('/ops/v1/cases/01AAAAAAAAAAAAAAAAAAAAAAAA/cancel', '{not json');

      expectProblem(response, 403, 'ops.role_required', production.stack);
    });

    it('when roles come in the configured claim only, then a token without them is 403 for everything', async () => {
      const response = await queueWith(await issuer.mint({ roles: undefined, groups: ['viewer'] }));

      expectProblem(response, 403, 'ops.role_required', production.stack);
    });
  });
}
