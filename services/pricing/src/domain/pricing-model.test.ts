import { DomainError } from '@rental/problem';
import { centsOfDecimal, milliOfPercentage } from '@rental/money';
import { CalculationDependencies, priceCalculation } from './calculation';
import { CalculationRequest, calculationRequest } from './calculation-request';
import { CheckoutTermsDependencies, PricedItemInput, freezeCheckoutTerms, priceCart } from './cart-pricing';
import type { Category, PartnerConditions, SectorRange } from './model';
import { durationRange, preselectedTier } from './conditions';

/**
 * The pricing model of docs/architecture.md through the use cases that apply it: estimate and
 * calculate (priceCalculation, which bulk runs per item), cart options and checkout terms. The
 * formula itself is rates.test.ts; these rows check that every caller feeds it the right factor,
 * tier, amounts, surcharge and interval.
 */

type FactorLists = Record<string, Record<number, Record<number, string>>>;

const factorLists = (lists: FactorLists): PartnerConditions['rentalFactors'] =>
  new Map(
    Object.entries(lists).map(([type, tiers]) => [
      type,
      new Map(
        Object.entries(tiers).map(([tier, list]) => [
          Number(tier),
          new Map(Object.entries(list).map(([duration, factor]) => [Number(duration), milliOfPercentage(factor)])),
        ]),
      ),
    ]),
  );

const partner = (partnerId: string, overrides: Partial<PartnerConditions> & { lists: FactorLists }): PartnerConditions => ({
  partnerId,
  partnerName: partnerId,
  allowedSectors: null,
  financingPartnerId: 'lender-a',
  distributionHubId: 'hub-north',
  monthlySurchargeCents: 250n,
  paymentIntervals: ['monthly', 'quarterly'],
  residualValues: new Map(),
  ...overrides,
  rentalFactors: factorLists(overrides.lists),
});

const PARTNERS: Record<string, PartnerConditions> = {
  acme: partner('acme', {
    lists: {
      leasing: {
        0: { 12: '8.950', 24: '4.610', 36: '3.180', 48: '2.460', 60: '2.040' },
        3: { 12: '9.220', 24: '4.750', 36: '3.280', 48: '2.540', 60: '2.110' },
      },
      rent: { 0: { 12: '9.400', 24: '4.900', 36: '3.400', 48: '2.650' } },
      rent_to_own: { 0: { 12: '9.100', 24: '4.700', 36: '3.250' } },
      partial_amortisation_leasing: { 0: { 36: '2.750', 48: '2.150', 60: '1.800' } },
      print_plan: { 0: { 36: '3.300', 48: '2.600', 60: '2.150' } },
    },
    residualValues: new Map([
      ['partial_amortisation_leasing', 15_000],
      ['rent_to_own', 0],
    ]),
  }),
  // no 0 % list: the lowest tier is preselected
  beta: partner('beta', { lists: { leasing: { 5: { 36: '3.500' }, 2: { 36: '3.300' } } }, monthlySurchargeCents: 0n }),
  // pays quarterly only, so its cart options carry no surcharge
  gamma: partner('gamma', { lists: { leasing: { 0: { 36: '3.180' } } }, paymentIntervals: ['quarterly'] }),
};

const SECTORS: SectorRange[] = [
  { value: 'IT_AND_OFFICE_EQUIPMENT', label: 'IT and office equipment', durationMin: 12, durationMax: 60 },
  { value: 'MEDICAL_DEVICES', label: 'Medical devices', durationMin: 24, durationMax: 72 },
];

const category = (id: number, slug: string, sector: string, [durationMin, durationMax]: [number, number], hasPrintPlanCapability = false): Category => ({
  id,
  slug,
  name: slug,
  sector,
  durationMin,
  durationMax,
  hasPrintPlanCapability,
});

const CATEGORIES: Category[] = [
  category(1, 'laptops', 'IT_AND_OFFICE_EQUIPMENT', [12, 48]),
  category(2, 'multifunction-printers', 'IT_AND_OFFICE_EQUIPMENT', [12, 60], true),
  category(3, 'servers', 'IT_AND_OFFICE_EQUIPMENT', [24, 60]),
  category(4, 'ultrasound-devices', 'MEDICAL_DEVICES', [24, 72]),
];

const conditions = {
  conditionsOf: async (partnerId: string) => PARTNERS[partnerId],
  sectors: async () => SECTORS,
};

/** A factor frozen on one of the partner's quotes, with that quote's calculation type and duration. */
type FrozenQuote = { factor: string; calculationType: string; duration: number };

const calculationDeps = (frozenOnQuotes: FrozenQuote[] = []): CalculationDependencies => ({
  conditions,
  frozenFactors: {
    isFrozenOnQuote: async (_partnerId, factor, term) =>
      frozenOnQuotes.some((quote) => quote.factor === factor && quote.calculationType === term.calculationType && quote.duration === term.duration),
  },
  findCategoryBySlug: async (slug) => CATEGORIES.find((candidate) => candidate.slug === slug),
  sandbox: true,
});

const request = (body: Record<string, unknown>): CalculationRequest =>
  calculationRequest.parse({ acquisitionCost: 1000, productSector: 'IT_AND_OFFICE_EQUIPMENT', ...body });

/** The offers as [type, duration, commission, factor, residual value, rate] rows. */
async function offers(partnerId: string, body: Record<string, unknown>, frozenOnQuotes: FrozenQuote[] = []) {
  const priced = await priceCalculation(request(body), partnerId, calculationDeps(frozenOnQuotes));
  return priced.response.offers.map((offer) => [offer.calculationType, offer.duration, offer.commission, offer.rentalFactor, offer.residualValue, offer.rate]);
}

async function violation(work: Promise<unknown>): Promise<[string, string]> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a domain error, got ${String(error)}`);
  const first = error.violations?.[0];
  return [first?.propertyPath ?? '', first?.code ?? error.code];
}

describe('pricing model', () => {
  describe('tier preselection: 0 when the partner has a 0 % list, else its lowest tier', () => {
    it.each([
      ['acme', 'leasing', 0],
      ['acme', 'rent', 0],
      ['beta', 'leasing', 2],
      ['beta', 'rent', undefined],
    ])('when %s prices %s, then the tier is %p', (partnerId, type, tier) => {
      expect(preselectedTier(PARTNERS[partnerId] as PartnerConditions, type)).toBe(tier);
    });

    it.each([
      ['acme, no commission named', 'acme', {}, ['leasing', 36, 0, '3.180', null, 34.3]],
      ['acme naming its 3 % tier', 'acme', { commission: 3 }, ['leasing', 36, 3, '3.280', null, 35.3]],
      ['beta, no commission named', 'beta', {}, ['leasing', 36, 2, '3.300', null, 33]],
      ['beta naming its 5 % tier', 'beta', { commission: 5 }, ['leasing', 36, 5, '3.500', null, 35]],
    ])('when %s, then the offer is %j', async (_case, partnerId, body, offer) => {
      expect(await offers(partnerId, { durations: [36], calculationTypes: ['leasing'], ...body })).toEqual([offer]);
    });

    it('when a tier the partner does not have is named, then the calculation is refused at commission', async () => {
      expect(await violation(priceCalculation(request({ durations: [36], calculationTypes: ['leasing'], commission: 4 }), 'acme', calculationDeps()))).toEqual([
        'commission',
        'calculation.validation.commission_not_available',
      ]);
    });
  });

  describe('financed amount = acquisitionCost + installationCost, null counting as 0', () => {
    it.each([
      [{ acquisitionCost: 900, installationCost: 100 }, 34.3],
      [{ acquisitionCost: 1000, installationCost: null }, 34.3],
      [{ acquisitionCost: null, installationCost: 1000 }, 34.3],
      [{ acquisitionCost: 1234.5, installationCost: 0.06 }, 41.76],
    ])('when the costs are %j, then the leasing rate for 36 months is %p', async (costs, rate) => {
      const [offer] = await offers('acme', { durations: [36], calculationTypes: ['leasing'], ...costs });
      expect(offer?.[5]).toBe(rate);
    });
  });

  describe('surcharge only monthly, service cost only for rent, as every calculation type is priced', () => {
    it.each([
      ['monthly', 'leasing', 34.3],
      ['quarterly', 'leasing', 31.8],
      ['monthly', 'rent', 46.5],
      ['quarterly', 'rent', 44],
      ['monthly', 'rent_to_own', 35],
      ['monthly', 'partial_amortisation_leasing', 30],
      ['quarterly', 'print_plan', 33],
    ])('when paying %s for %s with a 10.00 service cost, then the rate is %p', async (paymentInterval, type, rate) => {
      const [offer] = await offers('acme', { durations: [36], calculationTypes: [type], paymentInterval, serviceCost: 10 });
      expect(offer?.[5]).toBe(rate);
    });
  });

  describe("durations: the sector's depreciation range, narrowed by the category", () => {
    it.each([
      ['the sector alone', [], 'IT_AND_OFFICE_EQUIPMENT', { min: 12, max: 60 }],
      ['laptops', ['laptops'], undefined, { min: 12, max: 48 }],
      ['servers', ['servers'], undefined, { min: 24, max: 60 }],
      ['laptops and servers in one cart', ['laptops', 'servers'], undefined, { min: 24, max: 48 }],
      ['ultrasound devices', ['ultrasound-devices'], undefined, { min: 24, max: 72 }],
    ])('when the range of %s is asked for, then it is %j', (_case, slugs, sector, range) => {
      const categories = CATEGORIES.filter((candidate) => (slugs as string[]).includes(candidate.slug));
      expect(durationRange(SECTORS, categories, sector)).toEqual(range);
    });

    it.each([
      ['60 months without a category', {}, [60], [['leasing', 60, 0, '2.040', null, 22.9]]],
      ['48 months of laptops', { categorySlug: 'laptops' }, [48], [['leasing', 48, 0, '2.460', null, 27.1]]],
      [
        '24 and 60 months of servers',
        { categorySlug: 'servers' },
        [24, 60],
        [
          ['leasing', 24, 0, '4.610', null, 48.6],
          ['leasing', 60, 0, '2.040', null, 22.9],
        ],
      ],
    ])('when leasing %s, then the offers are %j', async (_case, body, durations, expected) => {
      expect(await offers('acme', { durations, calculationTypes: ['leasing'], ...body })).toEqual(expected);
    });

    it.each([
      ['60 months of laptops', { categorySlug: 'laptops' }, [60], ['leasing'], ['durations', 'calculation.validation.duration_not_allowed']],
      ['12 months of servers', { categorySlug: 'servers' }, [12], ['leasing'], ['durations', 'calculation.validation.duration_not_allowed']],
      ['72 months of IT equipment', {}, [36, 72], ['leasing'], ['durations', 'calculation.validation.duration_not_allowed']],
      ['60 months of rent, which has no 60 on its list', {}, [60], ['rent'], ['durations', 'calculation.validation.duration_not_available']],
    ])('when pricing %s, then the request is refused: %j', async (_case, body, durations, calculationTypes, expected) => {
      expect(await violation(priceCalculation(request({ durations, calculationTypes, ...body }), 'acme', calculationDeps()))).toEqual(expected);
    });

    it('when some durations are on the list and some not, then only the listed ones give offers', async () => {
      expect(await offers('acme', { durations: [36, 48], calculationTypes: ['rent_to_own'] })).toEqual([['rent_to_own', 36, 0, '3.250', '0.000', 35]]);
    });
  });

  describe('residual values travel with the offers of their type', () => {
    it.each([
      ['partial_amortisation_leasing', '15.000'],
      ['rent_to_own', '0.000'],
      ['leasing', null],
      ['rent', null],
    ])('when %s is priced, then its residual value is %p', async (type, residualValue) => {
      const [offer] = await offers('acme', { durations: [36], calculationTypes: [type] });
      expect(offer?.[4]).toBe(residualValue);
    });
  });

  describe('a persisted rental factor replaces the live one only for its own term', () => {
    const frozenLeasing36 = { factor: '7.777', calculationType: 'leasing', duration: 36 };

    it.each([
      ['the live factor of leasing 36 at tier 0', '3.18', [], {}, [36], [['leasing', 36, 0, '3.180', null, 34.3]]],
      ['the live factor of leasing 36 at the named tier 3', '3.280', [], { commission: 3 }, [36], [['leasing', 36, 3, '3.280', null, 35.3]]],
      ['frozen on a leasing quote of 36 months', '7.777', [frozenLeasing36], {}, [36], [['leasing', 36, 0, '7.777', null, 80.27]]],
    ])('when the factor is %s, then the offers are %j', async (_case, persistedRentalFactor, frozen, body, durations, expected) => {
      expect(await offers('acme', { durations, calculationTypes: ['leasing'], persistedRentalFactor, ...body }, frozen)).toEqual(expected);
    });

    it.each([
      ['its 60-month partial-amortisation factor on a 12-month leasing', '1.800', [], {}, [12], ['leasing']],
      ['its 60-month leasing factor on a 12-month leasing', '2.040', [], {}, [12], ['leasing']],
      ['the factor of rent 36 on a leasing of 36', '3.400', [], {}, [36], ['leasing']],
      ['the live factor of leasing 36 at tier 0 while tier 3 is named', '3.180', [], { commission: 3 }, [36], ['leasing']],
      ['the live factor of 36 months asked for 24 and 36 months', '3.180', [], {}, [24, 36], ['leasing']],
      ['frozen on a leasing quote of 24 months, asked for 36', '7.777', [{ ...frozenLeasing36, duration: 24 }], {}, [36], ['leasing']],
      ['frozen on a rent quote of 36 months, asked for leasing', '7.777', [{ ...frozenLeasing36, calculationType: 'rent' }], {}, [36], ['leasing']],
      ['frozen on a leasing quote of 36 months, asked for leasing and rent', '7.777', [frozenLeasing36], {}, [36], ['leasing', 'rent']],
      ['on no list and no quote', '7.777', [], {}, [36], ['leasing']],
    ])(
      'when the factor is %s, then it is refused at persistedRentalFactor',
      async (_case, persistedRentalFactor, frozen, body, durations, calculationTypes) => {
        expect(
          await violation(priceCalculation(request({ durations, calculationTypes, persistedRentalFactor, ...body }), 'acme', calculationDeps(frozen))),
        ).toEqual(['persistedRentalFactor', 'calculation.validation.rental_factor_not_frozen']);
      },
    );

    it('when a refused factor is named, then the message names the terms it may not price', async () => {
      const refused = await priceCalculation(
        request({ durations: [12, 36], calculationTypes: ['leasing'], persistedRentalFactor: '3.180' }),
        'acme',
        calculationDeps(),
      ).catch((error: DomainError) => error);
      expect((refused as DomainError).violations?.[0]?.message).toBe(
        'Rental factor 3.180 is neither the live factor nor frozen on one of your quotes for leasing over 12 months; send the factor of a quote of the same calculation type and duration, or none.',
      );
    });

    it('when the factor is the live one but a duration is not on the list, then that duration gives no offer', async () => {
      expect(
        await violation(
          priceCalculation(request({ durations: [48], calculationTypes: ['rent_to_own'], persistedRentalFactor: '3.250' }), 'acme', calculationDeps()),
        ),
      ).toEqual(['durations', 'calculation.validation.duration_not_available']);
    });
  });
});

const item = (slug: string, price: string, quantity: number): PricedItemInput => ({
  position: 1,
  productNumber: slug,
  quantity,
  priceCents: centsOfDecimal(price) as bigint,
  categorySlug: slug,
  devices: [],
});

const checkoutDeps: CheckoutTermsDependencies = {
  conditions,
  categories: { findCategories: async (ids, slugs) => CATEGORIES.filter((candidate) => ids.includes(candidate.id) || slugs.includes(candidate.slug)) },
  profileOf: async (partnerId) => ({
    id: partnerId,
    name: partnerId,
    contactEmail: null,
    financingPartner: null,
    paymentIntervals: ['monthly', 'quarterly'],
    distributionHub: { id: 'hub-north', name: 'Hub North', contactEmail: null, connected: true },
  }),
  hub: { slaFilesOf: async () => [{ fileId: 'sla-1', name: 'SLA', deleted: false }] },
};

describe('cart options and checkout terms follow the same rule', () => {
  it.each([
    ['acme, leasing', 'acme', 'leasing', 34.3],
    ['acme, rent (no service cost in a cart)', 'acme', 'rent', 36.5],
    ['acme, rent_to_own', 'acme', 'rent_to_own', 35],
    ['gamma, who pays quarterly only', 'gamma', 'leasing', 31.8],
  ])('when %s for 36 months is an option of a 2 × 500.00 laptop cart, then its rate is %p', async (_case, partnerId, type, rate) => {
    const priced = await priceCart([item('laptops', '500.00', 2)], partnerId, checkoutDeps);
    const option = priced.financingOptions.find((candidate) => candidate.financingType === type && candidate.duration === 36);
    expect(option && Number(option.monthlyRateAllInCents) / 100).toBe(rate);
  });

  it("when a cart's options are listed, then they stay inside every item's range and the item options inside its own", async () => {
    const priced = await priceCart([item('laptops', '500.00', 1), item('servers', '500.00', 1)], 'acme', checkoutDeps);
    expect([...new Set(priced.financingOptions.map((option) => option.duration))]).toEqual([24, 36, 48]);
    expect([...new Set(priced.items[1]?.financingOptions.map((option) => option.duration))]).toEqual([24, 36, 48, 60]);
  });

  it.each([
    ['leasing, monthly', 'leasing', 'monthly', null, { baseRateCents: 3180n, serviceCostCents: null, surchargeCents: 250n, monthlyRateAllInCents: 3430n }],
    ['leasing, quarterly', 'leasing', 'quarterly', null, { baseRateCents: 3180n, serviceCostCents: null, surchargeCents: 0n, monthlyRateAllInCents: 3180n }],
    [
      'rent with 10.00 service cost, monthly',
      'rent',
      'monthly',
      1000n,
      { baseRateCents: 3400n, serviceCostCents: 1000n, surchargeCents: 250n, monthlyRateAllInCents: 4650n },
    ],
    [
      'rent without service cost, quarterly',
      'rent',
      'quarterly',
      null,
      { baseRateCents: 3400n, serviceCostCents: null, surchargeCents: 0n, monthlyRateAllInCents: 3400n },
    ],
  ])(
    'when a 2 × 500.00 laptop cart is checked out with %s for 36 months, then the frozen rate is %j',
    async (_case, financingType, paymentInterval, serviceCostCents, rate) => {
      const terms = await freezeCheckoutTerms(
        {
          items: [item('laptops', '500.00', 2)],
          financingType,
          duration: 36,
          paymentInterval,
          serviceCostCents,
          customSlaFileName: financingType === 'rent' ? 'sla-1' : undefined,
        },
        'acme',
        checkoutDeps,
      );
      expect({
        baseRateCents: terms.baseRateCents,
        serviceCostCents: terms.serviceCostCents,
        surchargeCents: terms.surchargeCents,
        monthlyRateAllInCents: terms.monthlyRateAllInCents,
      }).toEqual(rate);
      expect(terms.rentalFactorMilli).toBe(financingType === 'rent' ? 3400 : 3180);
    },
  );
});
