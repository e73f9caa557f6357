import { fixturePartnerKey } from '@rental/testkit';
import { partnerWithHub } from '../support/partners';
import { apiAs } from '../support/shared-stack';

describe('catalogs', () => {
  it('when a partner lists categories, then every category comes with slug and Print-Plan capability', async () => {
    const response = await apiAs(fixturePartnerKey('acme')).get('/api/product-categories');
    expect(response.status).toBe(200);
    expect(response.json).toHaveLength(9);
    expect(response.json[1]).toEqual({ id: 2, slug: 'multifunction-printers', name: 'Multifunction printers', hasPrintPlanCapability: true });
  });

  it('when the page is invalid, then 400', async () => {
    expect((await apiAs(fixturePartnerKey('acme')).get('/api/product-categories?page=0')).status).toBe(400);
    expect((await apiAs(fixturePartnerKey('acme')).get('/api/product-categories?page=2')).json).toEqual([]);
  });

  it('when the partner has a connected hub, then its SLA files without the soft-deleted ones are listed', async () => {
    const response = await apiAs(fixturePartnerKey('acme')).get('/api/sla-files');
    expect(response.status).toBe(200);
    expect(response.json).toEqual([
      { fileId: 'sla-gold-2026', name: 'Gold service level 2026' },
      { fileId: 'sla-silver-2026', name: 'Silver service level 2026' },
    ]);
  });

  it('when the partner has no hub or the hub is not connected, then the list is empty', async () => {
    expect((await apiAs(fixturePartnerKey('beta')).get('/api/sla-files')).json).toEqual([]);
    expect((await apiAs(fixturePartnerKey('gamma')).get('/api/sla-files')).json).toEqual([]);
  });

  it('when the hub does not answer in time, then the list is empty and comes quickly', async () => {
    const { api } = await partnerWithHub('Slow', 10_000);
    const started = Date.now();
    const response = await api.get('/api/sla-files');
    expect(response.status).toBe(200);
    expect(response.json).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
