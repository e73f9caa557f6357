import { isDomainError } from '@rental/problem';
import { MAX_ENDPOINTS_PER_PARTNER, newSecret, registerEndpoint } from './endpoints';
import type { CreateOutcome, NewEndpoint } from './model';
import type { EndpointStore, HostResolver } from './ports';

function memoryStore(): EndpointStore & { saved: NewEndpoint[] } {
  const saved: NewEndpoint[] = [];
  return {
    saved,
    async create(endpoint, limit): Promise<CreateOutcome> {
      const mine = saved.filter((e) => e.partnerId === endpoint.partnerId);
      if (mine.some((e) => e.normalizedUrl === endpoint.normalizedUrl)) return 'duplicate';
      if (mine.length >= limit) return 'limit_reached';
      saved.push(endpoint);
      return 'created';
    },
    list: async () => [],
    find: async () => undefined,
    ownerOf: async () => undefined,
    setActive: async () => undefined,
    delete: async () => false,
  };
}

const resolver = (table: Record<string, string[]>): HostResolver => ({
  resolve: async (host) => {
    const addresses = table[host];
    if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
    return addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  },
});

const dns = resolver({
  'hooks.partner.example': ['93.184.216.34', '2606:2800:220:1::1'],
  'internal.partner.example': ['10.1.2.3'],
  'mixed.partner.example': ['93.184.216.34', '192.168.0.10'],
  'empty.partner.example': [],
});

async function refusal(promise: Promise<unknown>): Promise<{ kind: string; code: string; violations?: { propertyPath: string; code: string }[] }> {
  try {
    await promise;
  } catch (error) {
    if (isDomainError(error))
      return { kind: error.kind, code: error.code, violations: error.violations?.map(({ propertyPath, code }) => ({ propertyPath, code })) };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('registerEndpoint', () => {
  const strict = { allowPrivate: false };

  it('when the host resolves to public addresses only, then the endpoint is stored active with a fresh secret', async () => {
    const store = memoryStore();
    const endpoint = await registerEndpoint('acme', { url: 'https://hooks.partner.example/in' }, { store, resolver: dns, policy: strict });
    expect(endpoint).toMatchObject({
      partnerId: 'acme',
      url: 'https://hooks.partner.example/in',
      normalizedUrl: 'https://hooks.partner.example/in',
      active: true,
    });
    expect(endpoint.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(store.saved).toEqual([endpoint]);
  });

  it.each([
    ['https://internal.partner.example/in', 'webhook.url_not_public'],
    ['https://mixed.partner.example/in', 'webhook.url_not_public'],
    ['https://10.0.0.1/in', 'webhook.url_not_public'],
    ['https://[fd00::1]/in', 'webhook.url_not_public'],
    ['https://unknown.partner.example/in', 'webhook.url_unresolvable'],
    ['https://empty.partner.example/in', 'webhook.url_unresolvable'],
    ['http://hooks.partner.example/in', 'webhook.url_not_https'],
  ])('when the URL is %s, then it is refused with 422 %s at url', async (url, code) => {
    const store = memoryStore();
    expect(await refusal(registerEndpoint('acme', { url }, { store, resolver: dns, policy: strict }))).toEqual({
      kind: 'rule_violation',
      code: 'validation_failed',
      violations: [{ propertyPath: 'url', code }],
    });
    expect(store.saved).toEqual([]);
  });

  it('when the partner already has the URL or 20 endpoints, then it is a conflict', async () => {
    const store = memoryStore();
    const deps = { store, resolver: dns, policy: strict };
    await registerEndpoint('acme', { url: 'https://hooks.partner.example/in' }, deps);
    expect(await refusal(registerEndpoint('acme', { url: 'HTTPS://HOOKS.partner.example:443/in/' }, deps))).toMatchObject({
      kind: 'conflict',
      code: 'webhook.url_already_registered',
    });
    for (let n = 2; n <= MAX_ENDPOINTS_PER_PARTNER; n += 1) await registerEndpoint('acme', { url: `https://hooks.partner.example/in/${n}` }, deps);
    expect(await refusal(registerEndpoint('acme', { url: 'https://hooks.partner.example/in/21' }, deps))).toMatchObject({
      kind: 'conflict',
      code: 'webhook.endpoint_limit_reached',
    });
    expect(await registerEndpoint('beta', { url: 'https://hooks.partner.example/in' }, deps)).toMatchObject({ partnerId: 'beta' });
  });
});

describe('newSecret', () => {
  it('when a secret is made, then it is whsec_ and the base64 of 32 random bytes, different every time', () => {
    const secrets = [newSecret(), newSecret()];
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    }
    expect(secrets[0]).not.toBe(secrets[1]);
  });
});
