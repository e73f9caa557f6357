import { DomainError } from '@rental/problem';
import type { Cart } from './model/cart';
import { CHECKOUT_LEASE_RENEWAL_MS, CheckoutDependencies, checkOut, checkoutBody } from './checkout';
import type { CheckoutOutcome, IdempotencyKeyRef } from './model/checkout';
import type { CreatedCase, FrozenTerms } from './ports';

const context = { partnerId: 'acme', requestId: 'test' };
const request = checkoutBody.parse({ duration: 36, financingType: 'leasing', customer: { company: 'Test GmbH' } });
const cart: Cart = {
  id: 'CART1',
  partnerId: 'acme',
  status: 'active',
  items: [{ productNumber: 'P-1', quantity: 1, price: 1000 }] as Cart['items'],
  pricing: {} as Cart['pricing'],
  financingCaseId: null,
  quoteId: null,
  createdAt: '',
  updatedAt: '',
};

/** Ports that record what the checkout asked of them; `createCase` decides what case-workflow does. */
function fakeDependencies(createCase: () => Promise<CreatedCase>) {
  const calls = {
    renewed: [] as { cartId: string | undefined; key: IdempotencyKeyRef | undefined }[],
    completed: [] as { cartId: string; outcome: CheckoutOutcome; key: IdempotencyKeyRef | undefined }[],
    released: [] as string[],
    abandoned: [] as string[],
  };
  const deps: CheckoutDependencies = {
    carts: {
      insert: async () => undefined,
      find: async () => cart,
      replaceItems: async () => true,
      claim: async () => ({ ...cart, status: 'checking_out' }),
      release: async (id) => void calls.released.push(id),
    },
    idempotency: {
      begin: async () => ({ outcome: 'started' }),
      abandon: async (_partnerId, key) => void calls.abandoned.push(key),
    },
    ledger: {
      start: async (_cartId, _partnerId, key) => ({ cart, key: key ? 'started' : 'none', claim: { ...cart, status: 'checking_out' } }),
      renew: async (cartId, key) => void calls.renewed.push({ cartId, key }),
      complete: async (cartId, outcome, key) => void calls.completed.push({ cartId, outcome, key }),
    },
    pricing: {
      priceCart: async () => ({}) as Cart['pricing'],
      freezeCheckoutTerms: async () => ({}) as FrozenTerms,
      findCalculation: async () => undefined,
      financingPartnerOf: async () => ({ financingPartnerId: 'lender', distributionHubId: 'hub' }),
    },
    caseWorkflow: {
      createCaseFromCheckout: createCase,
      createCaseFromQuoteRequest: async () => {
        throw new Error('not used');
      },
    },
  };
  return { deps, calls };
}

describe('checkOut leases and completion', () => {
  afterEach(() => jest.useRealTimers());

  it('when case-workflow takes longer than a renewal period, then the cart claim and the key are renewed while it runs and no longer afterwards', async () => {
    jest.useFakeTimers();
    let answer!: (created: CreatedCase) => void;
    const { deps, calls } = fakeDependencies(
      () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    );

    const running = checkOut('CART1', request, 'hash', 'KEY1', deps, context);
    await jest.advanceTimersByTimeAsync(CHECKOUT_LEASE_RENEWAL_MS * 3);
    answer({ financingCaseId: 'CASE1', quoteId: 'QUOTE1', created: true } as CreatedCase);
    await running;
    const renewedWhileRunning = calls.renewed.length;
    await jest.advanceTimersByTimeAsync(CHECKOUT_LEASE_RENEWAL_MS * 3);

    expect(renewedWhileRunning).toBe(3);
    expect(calls.renewed).toEqual(Array(3).fill({ cartId: 'CART1', key: { partnerId: 'acme', key: 'KEY1' } }));
  });

  it('when the case is created, then the cart is checked out and the key completed in one step, with the outcome', async () => {
    const { deps, calls } = fakeDependencies(async () => ({ financingCaseId: 'CASE1', quoteId: 'QUOTE1', created: true }) as CreatedCase);

    const outcome = await checkOut('CART1', request, 'hash', 'KEY1', deps, context);

    expect(outcome).toEqual({ financingCaseId: 'CASE1', quoteId: 'QUOTE1', submitFinancing: true });
    expect(calls.completed).toEqual([{ cartId: 'CART1', outcome, key: { partnerId: 'acme', key: 'KEY1' } }]);
    expect([calls.released, calls.abandoned]).toEqual([[], []]);
  });

  it('when case-workflow is unavailable, then the cart is released and the key forgotten, and nothing is completed', async () => {
    const { deps, calls } = fakeDependencies(async () => {
      throw new DomainError('unavailable', 'dependency.unavailable', 'down');
    });

    await expect(checkOut('CART1', request, 'hash', 'KEY1', deps, context)).rejects.toMatchObject({ kind: 'unavailable' });

    expect([calls.completed, calls.released, calls.abandoned]).toEqual([[], ['CART1'], ['KEY1']]);
  });
});
