import { ApiClient, type Stack } from '@rental/testkit';
import { TestIssuer, unsigned } from '../support/test-issuer';
import { Portal, expectProblem } from './support/kit';

export const portalIssuer = new TestIssuer({
  subject: 'pu-acme-dieter',
  audience: 'rental-portal',
  claims: { partner_id: 'acme', portal_roles: ['viewer', 'developer'], name: 'Dieter Developer' },
});

/**
 * The portal in a production deployment with partners' tokens of an issuer the test controls:
 * every refusal is exactly one thing wrong with an otherwise good token, and a production's keys
 * are an admin's to manage. Run by production/shared-stack.test.ts, on a production stack whose
 * PORTAL_ISSUER_URL is portalIssuer's.
 */
export function portalProductionSuite(production: { readonly stack: Stack }): void {
  describe('portal identity and roles (production, an issuer the test controls)', () => {
    const issuer = portalIssuer;

    const portalWith = (token: string | null) => new Portal(token, production.stack);

    it('when the page asks for the session config, then it names the configured issuer', async () => {
      const response = await fetch(`${production.stack.gatewayUrl}/portal/v1/session-config`);
      expect([response.status, await response.json()]).toEqual([200, { issuer: issuer.url, audience: 'rental-portal', clientId: 'portal' }]);
    });

    it.each([
      ['no token', async () => null],
      ['a token with alg none', async () => unsigned(await issuer.mint())],
      ['an expired token', async () => issuer.mint({}, { expiresIn: Math.floor(Date.now() / 1000) - 60 })],
      ["an operator's token (the back office's audience)", async () => issuer.mint({}, { audience: 'rental-ops' })],
      ['a token of another issuer', async () => issuer.mint({}, { issuer: 'https://idp.elsewhere.example' })],
      ['a token without the partner claim', async () => issuer.mint({ partner_id: undefined })],
      ['a token naming an unknown partner', async () => issuer.mint({ partner_id: 'no-such-partner' })],
    ])('when %s comes, then 401 with WWW-Authenticate: Bearer', async (_what, token) => {
      const response = await portalWith(await token()).get('/portal/v1/api-keys');
      expectProblem(response, 401, undefined, production.stack);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="rental-portal"/);
    });

    it("when a developer manages keys in production, then 403 before anything, while webhooks stay a developer's", async () => {
      const developer = portalWith(await issuer.mint());
      expectProblem(await developer.post('/portal/v1/api-keys', { name: 'prod', role: 'api_user' }), 403, 'portal.role_required', production.stack);
      expectProblem(await developer.post('/portal/v1/api-keys/key_whatever/revoke'), 403, 'portal.role_required', production.stack);
      expect((await developer.get('/portal/v1/me')).json.may).toEqual({ manageKeys: false, manageWebhooks: true });
      expect((await developer.post('/portal/v1/webhook-endpoints', { url: 'https://93.184.216.34/hooks/production' })).status).toBe(201);
    });

    it('when an admin creates a production key, then it is prd_ and works at once, and the audit names the admin', async () => {
      const admin = portalWith(await issuer.mint({ portal_roles: ['viewer', 'developer', 'admin'], name: 'Ada Admin' }, { subject: 'pu-acme-ada' }));
      const created = await admin.post('/portal/v1/api-keys', { name: 'production shop', role: 'api_user' });
      expect([created.status, created.json.environment, created.json.createdBy]).toEqual([
        201,
        'production',
        { type: 'partner_user', id: 'pu-acme-ada', name: 'Ada Admin' },
      ]);
      expect(created.json.key).toMatch(/^prd_[A-Za-z0-9]{40}$/);
      expect((await new ApiClient(production.stack.gatewayUrl, created.json.key).get('/api/product-sectors')).status).toBe(200);
      const audit = (await admin.get('/portal/v1/audit')).json;
      expect(audit[0]).toEqual(expect.objectContaining({ action: 'api_key.created', actor: { type: 'partner_user', id: 'pu-acme-ada', name: 'Ada Admin' } }));
    });
  });
}
