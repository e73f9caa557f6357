/**
 * A partner prices only with rental factors it may use (the live factor of the term and tier, or one
 * frozen on its own quotes), and fields that would set its own margin, owner or hub are ignored.
 */
import { fixturePartnerKey } from '@rental/testkit';
import { createCaseViaGrpc } from '../support/cases';
import { Owner, newPartner } from '../case-workflow/support/kit';
import { expectViolationAt, leasing36 } from '../support/partner-requests';
import { apiAs, sharedStack } from '../support/shared-stack';
import { expectFactorRefused, expectStoredFactorRefused } from './support/rental-factor';

let owner: Owner;
let stranger: Owner;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([newPartner(), newPartner()]);
});

describe('a partner cannot set its own rental factor', () => {
  it.each(['0.001', '0.000', '9999999.999'])(
    "when persistedRentalFactor %s is on none of the partner's quotes or lists, then estimate and calculate answer 422 at persistedRentalFactor",
    async (factor) => {
      await expectFactorRefused(owner.api, leasing36, factor);
    },
  );

  it("when the factor is the live factor of the term and tier priced (not any factor of the partner's lists), then it prices with it", async () => {
    const response = await owner.api.post('/api/calculate/estimate', { ...leasing36, commission: 3, persistedRentalFactor: '3.28' });
    expect(response.status).toBe(201);
    expect(response.json.offers).toEqual([expect.objectContaining({ rentalFactor: '3.280', rate: 35.3 })]);
  });

  it("when the factor is frozen on one of the partner's quotes, then it prices with it; for another partner the same factor is 422", async () => {
    await createCaseViaGrpc(sharedStack(), owner.partner.id, { terms: { rentalFactor: '2.997', monthlyCosts: '29.97', monthlyRateAllIn: '32.47' } });
    const own = await owner.api.post('/api/calculate/estimate', { ...leasing36, persistedRentalFactor: '2.997' });
    expect(own.status).toBe(201);
    expect(own.json.offers).toEqual([expect.objectContaining({ rentalFactor: '2.997', rate: 32.47 })]);
    expectViolationAt(
      await stranger.api.post('/api/calculate/estimate', { ...leasing36, persistedRentalFactor: '2.997' }),
      422,
      'persistedRentalFactor',
      'calculation.validation.rental_factor_not_frozen',
    );
  });

  it("when a stored calculation was priced with a factor that is not the partner's own, then a quote request on it is 422 at calculation and nothing is filed", async () => {
    await expectStoredFactorRefused(owner.api, leasing36, '0.001');
  });

  it("when margin, partner, hub override and allowed sectors are sent, then prices, owner and hub stay the platform's and another partner sees nothing", async () => {
    const plain = await owner.api.post('/api/calculate/estimate', leasing36);
    const dressed = await owner.api.post('/api/calculate', {
      ...leasing36,
      margin: -99,
      partner: `/api/partners/${stranger.partner.id}`,
      distributionHubOverride: 'hub-south',
      distributionHub: 'hub-south',
      allowedProductSectors: ['OTHERS'],
      public: true,
      active: false,
      type: 2,
      requestType: 2,
      completeAcquisitionCost: 1,
      partnerCalculation: true,
    });
    expect(dressed.status).toBe(201);
    expect(dressed.json.response.offers).toEqual(plain.json.offers);
    expect(dressed.json.partner.id).toBe(owner.partner.id);
    expect((await stranger.api.get(`/api/calculations/${dressed.json.id}`)).status).toBe(404);
    expectViolationAt(
      await owner.api.post('/api/calculate/estimate', { ...leasing36, commission: 50 }),
      422,
      'commission',
      'calculation.validation.commission_not_available',
    );
  });
});

describe('the demo partner', () => {
  it('when acme estimates with the factor of its own list, then the answer equals the live price (no regression of the fixture)', async () => {
    const acme = apiAs(fixturePartnerKey('acme'));
    const live = await acme.post('/api/calculate/estimate', leasing36);
    const persisted = await acme.post('/api/calculate/estimate', { ...leasing36, persistedRentalFactor: '3.180' });
    expect(persisted.json.offers).toEqual(live.json.offers);
  });
});
