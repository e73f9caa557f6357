import { UNMATCHED_ROUTE, routeTemplateMatcher } from './route-templates';

const routeOf = routeTemplateMatcher([
  '/api/carts',
  '/api/carts/{id}',
  '/api/carts/{id}/checkout',
  '/api/webhook_endpoints/{id}/deliveries/{eventId}/redeliver',
  '/api/webhook_endpoints/{id}/deliveries/redeliver',
  '/api/docs.json',
]);

describe('route templates', () => {
  it.each([
    ['/api/carts', '/api/carts'],
    ['/api/carts/01JABC', '/api/carts/{id}'],
    ['/api/carts/01JABC/checkout', '/api/carts/{id}/checkout'],
    ['/api/webhook_endpoints/01J/deliveries/redeliver', '/api/webhook_endpoints/{id}/deliveries/redeliver'],
    ['/api/webhook_endpoints/01J/deliveries/evt-1/redeliver', '/api/webhook_endpoints/{id}/deliveries/{eventId}/redeliver'],
    ['/api/docs.json', '/api/docs.json'],
  ])('when %s is requested, then its route is %s', (path, template) => {
    expect(routeOf(path)).toBe(template);
  });

  it('when no template matches (extra segments, a trailing slash, a regex look-alike), then the route is unmatched, never the path', () => {
    expect([routeOf('/api/carts/01J/checkout/now'), routeOf('/api/carts/'), routeOf('/api/docsxjson'), routeOf('/api/partners')]).toEqual([
      UNMATCHED_ROUTE,
      UNMATCHED_ROUTE,
      UNMATCHED_ROUTE,
      UNMATCHED_ROUTE,
    ]);
  });
});
