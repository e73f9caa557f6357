import type { ServiceName } from '@rental/config';
import { pathPattern } from './route-templates';

/**
 * How a call on the route is admitted: `api_key` checks X-Api-Key and speaks for its partner;
 * `none` leaves authentication to the owner (a customer's link token, an outside party's signed
 * callback, an operator's or a partner user's bearer token) and throttles by client address.
 */
export type RouteKey = 'api_key' | 'none';

interface RoutePrefix {
  /** Covers this path and every path beneath it; `{name}` stands for one non-empty segment. */
  prefix: string;
  /** Covers this path only, not the paths beneath it. */
  exact?: true;
}

/** A path a service behind the proxy answers. */
export interface ServiceRoute extends RoutePrefix {
  owner: ServiceName;
  key: RouteKey;
}

/** A path the gateway answers itself, without a key. */
export interface GatewayRoute extends RoutePrefix {
  owner: 'gateway';
}

export type Route = ServiceRoute | GatewayRoute;

/**
 * Every public path and who owns it: the proxy routes by it, the API description checks each
 * service's operations against it, the tests read it. The most specific prefix (most segments) wins.
 */
export const ROUTES: readonly Route[] = [
  { prefix: '/api/calculate', owner: 'pricing', key: 'api_key' },
  { prefix: '/api/calculations', owner: 'pricing', key: 'api_key' },
  { prefix: '/api/product-sectors', owner: 'pricing', key: 'api_key' },
  { prefix: '/api/product-categories', owner: 'pricing', key: 'api_key' },
  { prefix: '/api/sla-files', owner: 'pricing', key: 'api_key' },
  { prefix: '/api/carts', owner: 'cart-checkout', key: 'api_key' },
  { prefix: '/api/quote_requests', owner: 'cart-checkout', key: 'api_key' },
  { prefix: '/api/financing_cases', owner: 'case-workflow', key: 'api_key' },
  { prefix: '/api/financing-cases', owner: 'case-workflow', key: 'api_key' },
  { prefix: '/api/quotes', owner: 'case-workflow', key: 'api_key' },
  { prefix: '/api/contracts', owner: 'case-workflow', key: 'api_key' },
  { prefix: '/api/sandbox', owner: 'case-workflow', key: 'api_key' },
  { prefix: '/api/financing-cases/{id}/documents', owner: 'documents', key: 'api_key' },
  { prefix: '/api/financing-cases/{id}/document-requests', owner: 'documents', key: 'api_key' },
  { prefix: '/api/documents', owner: 'documents', key: 'api_key' },
  { prefix: '/api/webhook_endpoints', owner: 'notifications', key: 'api_key' },
  // The customer's link: documents owns uploads, case-workflow the offer, answers to questions and the page.
  { prefix: '/customer/v1/quotes/{token}', owner: 'case-workflow', key: 'none' },
  { prefix: '/customer/v1/quotes/{token}/documents', owner: 'documents', key: 'none' },
  { prefix: '/c/{token}', owner: 'case-workflow', key: 'none' },
  { prefix: '/c/{token}/documents', exact: true, owner: 'documents', key: 'none' },
  // Outside parties' callbacks, verified by case-workflow over the untouched body.
  { prefix: '/lender/v1/{lender}/events', exact: true, owner: 'case-workflow', key: 'none' },
  { prefix: '/signing/v1/events', exact: true, owner: 'case-workflow', key: 'none' },
  { prefix: '/ops', owner: 'backoffice', key: 'none' },
  { prefix: '/console', owner: 'backoffice', key: 'none' },
  // The partner portal: partner users' bearer tokens, verified by the portal (its API, page and session config).
  { prefix: '/portal', owner: 'portal', key: 'none' },
  // The gateway's own: the API description, its reference page, the console's sign-in settings, the problem type pages.
  { prefix: '/api/docs.json', exact: true, owner: 'gateway' },
  { prefix: '/api/docs', owner: 'gateway' },
  { prefix: '/ops/v1/session-config', exact: true, owner: 'gateway' },
  { prefix: '/problems', owner: 'gateway' },
];

/** Most segments first, so a nested owner (documents under a case) is found before its parent's. */
const COMPILED = [...ROUTES]
  .sort((a, b) => b.prefix.split('/').length - a.prefix.split('/').length)
  .map((route) => ({ route, pattern: pathPattern(route.prefix, route.exact ? 'exact' : 'and_beneath') }));

/**
 * The route of a path. An unsafe path (dot segments, encoded separators) reaches no service;
 * the gateway's own routes serve it, as they serve static files safely by themselves.
 */
export function routeOf(path: string): Route | undefined {
  const route = COMPILED.find(({ pattern }) => pattern.test(path))?.route;
  if (!route || route.owner === 'gateway' || isSafePath(path)) return route;
  return undefined;
}

/** Paths under /api without a route are still partner calls: the key is checked before the 404. */
export const isPartnerApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

const CHECKOUT_PATH = /^\/api\/carts\/[^/]+\/checkout\/?$/;

/** A checkout sent without Idempotency-Key: its every answer carries the deprecation headers. */
export function isKeylessCheckout(method: string | undefined, path: string, idempotencyKey: string | string[] | undefined): boolean {
  return method === 'POST' && CHECKOUT_PATH.test(path) && idempotencyKey === undefined;
}

/** Dot segments, encoded slashes or undecodable escapes never reach a service. */
export function isSafePath(path: string): boolean {
  if (/%2f|%5c|%00/i.test(path)) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  return !decoded.split('/').some((segment) => segment === '..' || segment === '.') && !decoded.includes('\\');
}
