import { SERVICE_NAMES, ServiceName, defaultAdminPort } from '@rental/config';
import { createTestPartner } from '@rental/testkit';
import { Exposition, parseMetrics, sumOf } from '../support/metrics';
import { apiAs, sharedStack } from '../support/shared-stack';

// What Prometheus scrapes: names promtool accepts and labels that stay few (route templates,
// never paths). Prometheus reaches every process on its admin port; the public ports serve no metrics.

const UNKNOWN_ULID = '01JABCDEFGHJKMNPQRSTVWXYZ0';

async function scrape(url: string): Promise<{ text: string; exposition: Exposition }> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, exposition: parseMetrics(text) };
}

/** The problems `promtool check metrics` reports for a metric family (its lint rules, in short). */
function promtoolProblems(exposition: Exposition): string[] {
  const problems: string[] = [];
  for (const [name, type] of exposition.types) {
    if (!exposition.helps.has(name)) problems.push(`${name}: no help text`);
    if (type === 'counter' && !name.endsWith('_total')) problems.push(`${name}: counter metrics should have "_total" suffix`);
    if (type !== 'counter' && name.endsWith('_total')) problems.push(`${name}: non-counter metrics should not have "_total" suffix`);
    if (name.includes(':')) problems.push(`${name}: metric names should not contain ':'`);
    if (/[A-Z]/.test(name)) problems.push(`${name}: metric names should be written in 'snake_case' not 'camelCase'`);
    if (/_(ms|milliseconds|sec|secs|percent|kb|mb)(_|$)/.test(name)) problems.push(`${name}: use base units`);
    if (type !== 'histogram' && type !== 'summary' && /_(count|sum|bucket)$/.test(name)) problems.push(`${name}: reserved suffix`);
  }
  for (const sample of exposition.samples) {
    for (const label of Object.keys(sample.labels)) if (/[A-Z]/.test(label)) problems.push(`${sample.name}: label ${label} should be snake_case`);
  }
  return [...new Set(problems)];
}

const countOf = (exposition: Exposition, labels: Record<string, string>) => sumOf(exposition, 'http_request_duration_seconds_count', labels);

describe("the gateway's request metrics", () => {
  it('when calls go to services, are refused by the gateway or match no route, then they are counted by route template and owning service, never by path', async () => {
    const partner = apiAs((await createTestPartner(sharedStack(), { like: 'acme' })).key);
    const metricsUrl = `http://127.0.0.1:${defaultAdminPort('gateway', sharedStack().portBase)}/metrics`;
    const before = (await scrape(metricsUrl)).exposition;

    expect((await partner.get(`/api/carts/${UNKNOWN_ULID}`)).status).toBe(404);
    expect((await partner.get(`/api/webhook_endpoints/${UNKNOWN_ULID}/deliveries`)).status).toBe(404);
    expect((await apiAs().get(`/api/carts/${UNKNOWN_ULID}`)).status).toBe(401);
    expect((await partner.get(`/api/carts/${UNKNOWN_ULID}/no/such/thing`)).status).toBe(404);
    expect((await partner.get('/api/partners')).status).toBe(404);

    const after = (await scrape(metricsUrl)).exposition;
    const grew = (labels: Record<string, string>) => countOf(after, labels) - countOf(before, labels);
    expect([
      grew({ method: 'GET', route: '/api/carts/{id}', service: 'cart-checkout', status: '404' }),
      grew({ method: 'GET', route: '/api/webhook_endpoints/{id}/deliveries', service: 'notifications', status: '404' }),
      grew({ method: 'GET', route: '/api/carts/{id}', service: 'gateway', status: '401' }),
      grew({ method: 'GET', route: 'unmatched', service: 'cart-checkout', status: '404' }),
      grew({ method: 'GET', route: 'unmatched', service: 'gateway', status: '404' }),
    ]).toEqual([1, 1, 1, 1, 1]);

    const sample = after.samples.find(
      (entry) => entry.name === 'http_request_duration_seconds_count' && entry.labels.route === '/api/carts/{id}' && entry.labels.status === '404',
    );
    expect(Object.keys(sample!.labels).sort()).toEqual(['method', 'route', 'service', 'status']);
    const described = Object.keys((await apiAs().get('/api/docs.json')).json.paths);
    const routes = new Set(after.samples.filter((entry) => entry.name.startsWith('http_request_duration_seconds')).map((entry) => entry.labels.route));
    expect([...routes].filter((route) => route !== 'unmatched' && !described.includes(route as string))).toEqual([]);
  });
});

describe('the /metrics exposition of every process', () => {
  it.each(['gateway', ...SERVICE_NAMES])(
    "when %s is scraped, then promtool's naming rules hold and the process gauges carry no _total suffix",
    async (name) => {
      const url = `http://127.0.0.1:${defaultAdminPort(name as ServiceName | 'gateway', sharedStack().portBase)}/metrics`;
      const { exposition } = await scrape(url);

      expect(promtoolProblems(exposition)).toEqual([]);
      expect([...exposition.types.keys()].filter((name) => name.startsWith('nodejs_active_'))).toEqual([
        'nodejs_active_resources',
        'nodejs_active_handles',
        'nodejs_active_requests',
      ]);
      expect(exposition.types.get('http_request_duration_seconds')).toBe('histogram');
      expect(exposition.samples.filter((sample) => sample.name === 'process_cpu_seconds_total').map((sample) => sample.labels)).toEqual([{ service: name }]);
    },
  );
});
