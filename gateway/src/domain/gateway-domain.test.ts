import { ApiKeyAuthenticator, hashApiKey } from './api-key';
import type { ApiKeyStore } from './ports';
import { ROUTES, isSafePath, routeOf } from './route-table';

/** The owner of a path and how it is admitted, as the proxy decides it. */
function ownerOf(path: string): string | undefined {
  const route = routeOf(path);
  if (!route) return undefined;
  return route.owner === 'gateway' || route.key === 'api_key' ? route.owner : `${route.owner} (no key)`;
}

describe('route table', () => {
  it.each([
    ['/api/calculate/estimate/bulk', 'pricing'],
    ['/api/calculations/01J', 'pricing'],
    ['/api/sla-files', 'pricing'],
    ['/api/carts/01J/checkout', 'cart-checkout'],
    ['/api/quote_requests', 'cart-checkout'],
    ['/api/financing-cases/01J/documents', 'documents'],
    ['/api/financing-cases/01J/document-requests/information/3/respond', 'documents'],
    ['/api/documents/7/download', 'documents'],
    ['/api/financing-cases/01J/start-esignature', 'case-workflow'],
    ['/api/financing_cases/01J/cancel', 'case-workflow'],
    ['/api/sandbox/financing_cases/01J/simulate', 'case-workflow'],
    ['/api/quotes/01J', 'case-workflow'],
    ['/api/contracts/01J/edit-contract-number', 'case-workflow'],
    ['/api/webhook_endpoints/01J/deliveries', 'notifications'],
    ['/api/docs.json', 'gateway'],
    ['/api/docs/swagger-ui.css', 'gateway'],
    ['/ops/v1/session-config', 'gateway'],
    // The customer's paths: the link token is the credential, so they are taken without an API key.
    ['/customer/v1/quotes/tok', 'case-workflow (no key)'],
    ['/customer/v1/quotes/tok/accept', 'case-workflow (no key)'],
    ['/customer/v1/quotes/tok/offer.pdf', 'case-workflow (no key)'],
    ['/customer/v1/quotes/tok/documents', 'documents (no key)'],
    ['/customer/v1/quotes/tok/information/3/respond', 'case-workflow (no key)'],
    ['/c/tok', 'case-workflow (no key)'],
    ['/c/tok/feedback', 'case-workflow (no key)'],
    ['/c/tok/documents', 'documents (no key)'],
    ['/c/tok/documents/x', 'case-workflow (no key)'],
    ['/c/tok/information/3', 'case-workflow (no key)'],
    // The partner portal: the partner user's bearer token is the credential.
    ['/portal', 'portal (no key)'],
    ['/portal/v1/api-keys', 'portal (no key)'],
    ['/portal/v1/session-config', 'portal (no key)'],
  ])('when %s is called, then %s owns it', (path, owner) => {
    expect(ownerOf(path)).toBe(owner);
  });

  it("when a path is not the customer's, then no customer route takes it", () => {
    expect(ownerOf('/api/financing_cases/01J')).toBe('case-workflow');
    for (const path of ['/customer/v1/quotes', '/customer/v2/quotes/tok', '/c', '/c/', '/cx/tok']) expect(ownerOf(path)).toBeUndefined();
  });

  it('when a path is unknown or only shares a prefix, then no service owns it', () => {
    for (const path of ['/api/cartsx', '/api/partners', '/api/docs.json/x', '/api/docsx', '/consolex', '/opsx']) expect(ownerOf(path)).toBeUndefined();
  });

  it('when a lender, the signing provider or the approval team calls without a key, then exactly those paths go to their owner', () => {
    expect(ownerOf('/lender/v1/lender-a/events')).toBe('case-workflow (no key)');
    expect(ownerOf('/signing/v1/events')).toBe('case-workflow (no key)');
    expect(ownerOf('/ops/v1/cases')).toBe('backoffice (no key)');
    expect(ownerOf('/console/cases/1')).toBe('backoffice (no key)');
    for (const path of [
      '/lender/v1/events',
      '/lender/v1/lender-a/events/x',
      '/lender/v1/a/b/events',
      '/signing/v1/events/1',
      '/signing/v2/events',
      '/api/signing/v1/events',
    ]) {
      expect(ownerOf(path)).toBeUndefined();
    }
  });

  it('when the table is read, then no prefix appears twice and every row is reached by its own prefix', () => {
    const prefixes = ROUTES.map((route) => route.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    for (const route of ROUTES) expect(routeOf(route.prefix.replace(/\{[^/]+\}/g, 'x1'))).toBe(route);
  });

  it("when a path is unsafe, then it reaches no service, and only the gateway's own routes still take it", () => {
    expect(routeOf('/api/carts/../webhook_endpoints')).toBeUndefined();
    expect(routeOf('/c/%2e%2e')).toBeUndefined();
    expect(routeOf('/api/docs/../carts')?.owner).toBe('gateway');
  });

  it('when a path climbs out or hides separators, then it is unsafe', () => {
    expect(isSafePath('/api/carts/abc')).toBe(true);
    for (const path of [
      '/api/carts/../webhook_endpoints',
      '/api/carts/%2e%2e/x',
      '/api/carts/a%2Fb',
      '/api/carts/%E0%A4%A',
      '/api/carts/a%5cb',
      '/api/./carts',
    ]) {
      expect(isSafePath(path)).toBe(false);
    }
  });
});

describe('ApiKeyAuthenticator', () => {
  type Known = { partnerId: string; revoked?: boolean; expiresAt?: number; suspended?: boolean };
  function storeWith(keys: Record<string, Known>): ApiKeyStore & { lookups: number } {
    const store = {
      lookups: 0,
      async findKey(hash: string, environment: string) {
        store.lookups += 1;
        const known = keys[hash];
        return known && environment === 'sandbox'
          ? {
              partner: { partnerId: known.partnerId, environment, roles: ['api_user'] },
              revoked: known.revoked ?? false,
              expiresAt: known.expiresAt ?? null,
              partnerSuspended: known.suspended ?? false,
            }
          : undefined;
      },
      async recordLastUse() {},
    };
    return store;
  }
  const key = 'sbx_acme_0123456789abcdef';
  const accepted = { accepted: { partner: { partnerId: 'acme', environment: 'sandbox', roles: ['api_user'] }, keyHash: hashApiKey(key) } };

  it("when a known key is used twice while the cache is usable, then the store is asked once and both times the partner comes with the key's hash", async () => {
    const store = storeWith({ [hashApiKey(key)]: { partnerId: 'acme' } });
    const used: string[] = [];
    const authenticator = new ApiKeyAuthenticator(store, 'sandbox', 30_000, (hash) => used.push(hash));
    authenticator.useCache(true);
    expect(await authenticator.authenticate(key)).toEqual(accepted);
    expect(await authenticator.authenticate(key)).toEqual(accepted);
    expect(store.lookups).toBe(1);
    expect(used).toEqual([hashApiKey(key), hashApiKey(key)]);
  });

  it('when the cache is not usable (no change notifications) or was told to forget, then the store is asked again', async () => {
    const store = storeWith({ [hashApiKey(key)]: { partnerId: 'acme' } });
    const authenticator = new ApiKeyAuthenticator(store, 'sandbox', 30_000);
    await authenticator.authenticate(key);
    await authenticator.authenticate(key);
    expect(store.lookups).toBe(2);
    authenticator.useCache(true);
    await authenticator.authenticate(key);
    authenticator.forgetAll();
    await authenticator.authenticate(key);
    expect(store.lookups).toBe(4);
  });

  it('when the cache time has passed, then the store is asked again', async () => {
    const store = storeWith({ [hashApiKey(key)]: { partnerId: 'acme' } });
    const authenticator = new ApiKeyAuthenticator(store, 'sandbox', 0);
    authenticator.useCache(true);
    await authenticator.authenticate(key);
    await authenticator.authenticate(key);
    expect(store.lookups).toBe(2);
  });

  it('when a key is revoked, expired or its partner suspended, then it is refused with its own reason and not counted as used', async () => {
    let now = 1_000;
    const keys = ['sbx_revoked_0123456789', 'sbx_expiring_0123456789', 'sbx_suspended_0123456789'];
    const store = storeWith({
      [hashApiKey(keys[0]!)]: { partnerId: 'acme', revoked: true },
      [hashApiKey(keys[1]!)]: { partnerId: 'acme', expiresAt: 2_000 },
      [hashApiKey(keys[2]!)]: { partnerId: 'acme', suspended: true },
    });
    const used: string[] = [];
    const authenticator = new ApiKeyAuthenticator(
      store,
      'sandbox',
      30_000,
      (hash) => used.push(hash),
      () => now,
    );
    authenticator.useCache(true);
    expect(await authenticator.authenticate(keys[0])).toEqual({ refused: 'api_key.revoked' });
    expect(await authenticator.authenticate(keys[1])).toHaveProperty('accepted');
    now = 2_000;
    expect(await authenticator.authenticate(keys[1])).toEqual({ refused: 'api_key.expired' });
    expect(await authenticator.authenticate(keys[2])).toEqual({ refused: 'partner.suspended' });
    expect(used).toEqual([hashApiKey(keys[1]!)]);
  });

  it('when a key is unknown, then it is asked for again next time (never cached), and implausible keys are not looked up', async () => {
    const store = storeWith({});
    const authenticator = new ApiKeyAuthenticator(store, 'sandbox', 30_000);
    authenticator.useCache(true);
    expect(await authenticator.authenticate('sbx_unknown_0123456789')).toBeUndefined();
    expect(await authenticator.authenticate('sbx_unknown_0123456789')).toBeUndefined();
    expect(store.lookups).toBe(2);
    for (const candidate of [undefined, '', 'short', 'has spaces in the key 123456', 'x'.repeat(201)])
      expect(await authenticator.authenticate(candidate)).toBeUndefined();
    expect(store.lookups).toBe(2);
  });

  it('when a key is hashed, then it is the hex SHA-256 of the key', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
