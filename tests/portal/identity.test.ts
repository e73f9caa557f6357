import { createTestPartner } from '@rental/testkit';
import { rows } from '../support/database';
import { operatorToken } from '../backoffice/support/kit';
import { Portal, clientToken, expectProblem, fixtureUsers, portalDiscovery, sharedStack, userWith } from './support/kit';

const gateway = () => sharedStack().gatewayUrl;

/** The token with one character of its signature changed. */
const tampered = (token: string) => `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;

/** The token's claims, unsigned (alg none). */
function unsigned(token: string): string {
  const [, payload] = token.split('.');
  return `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`;
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('portal: who signs in', () => {
  it('when the page asks for the session config without a token, then it names the issuer, audience and public client', async () => {
    const response = await fetch(`${gateway()}/portal/v1/session-config`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ issuer: `http://127.0.0.1:${sharedStack().portBase + 25}`, audience: 'rental-portal', clientId: 'portal' });
  });

  it("when a partner's program signs in with its client credentials, then its token is for the portal and names the fixture user, partner and roles", async () => {
    const ada = userWith(fixtureUsers('acme'), 'admin');
    const claims = claimsOf(await clientToken(ada.clientId, ada.clientSecret));
    expect(claims).toEqual(
      expect.objectContaining({
        sub: 'pu-acme-ada',
        aud: 'rental-portal',
        partner_id: 'acme',
        portal_roles: ['viewer', 'developer', 'admin'],
        name: 'Ada Admin',
      }),
    );
    const me = await (await Portal.as(ada)).get('/portal/v1/me');
    expect([me.status, me.json]).toEqual([
      200,
      {
        id: 'pu-acme-ada',
        name: 'Ada Admin',
        partnerId: 'acme',
        roles: ['viewer', 'developer', 'admin'],
        environment: 'sandbox',
        may: { manageKeys: true, manageWebhooks: true },
      },
    ]);
  });

  it('when a call comes without a token, then 401 with WWW-Authenticate Bearer, before anything else', async () => {
    for (const [method, path] of [
      ['GET', '/portal/v1/api-keys'],
      ['POST', '/portal/v1/api-keys'],
      ['GET', '/portal/v1/audit'],
      ['DELETE', '/portal/v1/webhook-endpoints/01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    ]) {
      const response = await new Portal(null).send(method as string, path as string);
      expectProblem(response, 401, 'auth.missing_token');
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="rental-portal"');
    }
  });

  it("when the token's signature is altered or it is unsigned (alg none), then 401 invalid_token", async () => {
    const token = await clientToken(userWith(fixtureUsers('acme'), 'viewer').clientId, userWith(fixtureUsers('acme'), 'viewer').clientSecret);
    for (const bad of [tampered(token), unsigned(token), 'not-a-jwt']) {
      const response = await new Portal(bad).get('/portal/v1/api-keys');
      expectProblem(response, 401, 'auth.invalid_token');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="rental-portal", error="invalid_token"/);
    }
  });

  it("when an operator's token is used on the portal, then 401; when a partner user's is used on the back office, then 401", async () => {
    const operator = await operatorToken('approver');
    expectProblem(await new Portal(operator).get('/portal/v1/api-keys'), 401, 'auth.invalid_token');
    const partnerUser = await clientToken(userWith(fixtureUsers('acme'), 'admin').clientId, userWith(fixtureUsers('acme'), 'admin').clientSecret);
    const ops = await fetch(`${gateway()}/ops/v1/cases`, { headers: { Authorization: `Bearer ${partnerUser}` } });
    expect([ops.status, ops.headers.get('www-authenticate')?.startsWith('Bearer')]).toEqual([401, true]);
  });

  it("when an operator's program asks the token endpoint for the portal's resource, then it is refused", async () => {
    const { token_endpoint: tokenEndpoint } = await portalDiscovery();
    const response = await fetch(tokenEndpoint, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from('ops-anna:cs_anna_1d5f8b2e7a3c9f4b6e0d1a8c').toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials&resource=urn%3Arental%3Aportal',
    });
    expect([response.status, ((await response.json()) as { error: string }).error]).toEqual([400, 'invalid_target']);
  });

  it('when a token names a partner that does not exist, then 401', async () => {
    const stack = sharedStack();
    const suffix = Date.now().toString(36);
    await rows(
      stack.databaseUrl,
      `INSERT INTO identity_dev.partner_users (id, partner_id, name, email, password_hash, roles, client_id, client_secret)
      VALUES ($1, 'no-such-partner', 'Ghost', $2, 'scrypt$x$y', '["viewer"]', $3, $4)`,
      [`pu-ghost-${suffix}`, `ghost-${suffix}@nowhere.example`, `portal-ghost-${suffix}`, `cs_ghost_${suffix}_0123456789`],
    );
    const token = await clientToken(`portal-ghost-${suffix}`, `cs_ghost_${suffix}_0123456789`);
    const response = await new Portal(token).get('/portal/v1/api-keys');
    expectProblem(response, 401, 'auth.invalid_token');
    expect(response.json.detail).toBe('The token names an unknown partner.');
  });

  it('when a viewer calls an operation of a developer, then 403 before the body is read (a malformed body too)', async () => {
    const { users } = await createTestPartner(sharedStack());
    const viewer = await Portal.as(userWith(users, 'viewer'));
    expectProblem(await viewer.post('/portal/v1/api-keys', { name: 'x', role: 'api_user' }), 403, 'portal.role_required');
    expectProblem(await viewer.send('POST', '/portal/v1/webhook-endpoints', '{not json'), 403, 'portal.role_required');
    expectProblem(await viewer.post('/portal/v1/api-keys/key_unknown/revoke'), 403, 'portal.role_required');
  });
});
