import { ApiClient, createTestPartner, fixturePartnerKey } from '@rental/testkit';
import { DEMO_SEED_FILE, readSeedFile } from '@rental/stack/fixture';
import { sharedStack } from '../support/shared-stack';

/** The door of a testkit stack's control port through which tests add partners of their own. */
describe('test partners through the stack control port', () => {
  const addPartners = (body: string) =>
    fetch(`${sharedStack().controlUrl}/partners`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

  it('when a test partner is made, then its keys work at once and it has the conditions of its template', async () => {
    const partner = await createTestPartner(sharedStack(), { like: 'acme' });

    const sectors = await new ApiClient(sharedStack().gatewayUrl, partner.key).get('/api/product-sectors');
    const acmeSectors = await new ApiClient(sharedStack().gatewayUrl, fixturePartnerKey('acme')).get('/api/product-sectors');
    expect([sectors.status, sectors.json]).toEqual([200, acmeSectors.json]);
    expect((await new ApiClient(sharedStack().gatewayUrl, partner.readOnlyKey).get('/api/product-sectors')).status).toBe(200);
  });

  it.each([
    ['not JSON', '{partners', /expected object/],
    ['a partner without an id', JSON.stringify({ ...readSeedFile(DEMO_SEED_FILE), partners: [{ name: 'No id' }] }), /partners\[0\]\.id/],
  ])('when the body is %s, then 400 naming what is wrong', async (_what, body, message) => {
    const response = await addPartners(body);

    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(message);
  });
});
