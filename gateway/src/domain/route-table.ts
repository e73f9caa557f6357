import type { ServiceName } from '@rental/config';

/** Which service owns a public path; the first matching rule wins. */
const RULES: ReadonlyArray<readonly [RegExp, ServiceName]> = [
  [/^\/api\/(calculate|calculations|product-sectors|product-categories|sla-files)(\/|$)/, 'pricing'],
  [/^\/api\/(carts|quote_requests)(\/|$)/, 'cart-checkout'],
  [/^\/api\/financing-cases\/[^/]+\/(documents|document-requests)(\/|$)/, 'documents'],
  [/^\/api\/documents(\/|$)/, 'documents'],
  [/^\/api\/(financing_cases|financing-cases|quotes|contracts|sandbox)(\/|$)/, 'case-workflow'],
  [/^\/api\/webhook_endpoints(\/|$)/, 'notifications'],
];

const CHECKOUT_PATH = /^\/api\/carts\/[^/]+\/checkout\/?$/;

/** A checkout sent without Idempotency-Key: its every answer carries the deprecation headers. */
export function isKeylessCheckout(method: string | undefined, path: string, idempotencyKey: string | string[] | undefined): boolean {
  return method === 'POST' && CHECKOUT_PATH.test(path) && idempotencyKey === undefined;
}

export function owningService(path: string): ServiceName | undefined {
  return RULES.find(([pattern]) => pattern.test(path))?.[1];
}

/**
 * Paths reached without an API key, each authenticated by its owner: the customer's link token
 * (documents owns uploads and answers, case-workflow the offer and the page), outside parties'
 * signed callbacks (verified over the untouched body) and the back office (the operator's bearer
 * token). `/ops/v1/session-config` is the gateway's own. The first matching rule wins.
 */
const KEYLESS_RULES: ReadonlyArray<readonly [RegExp, ServiceName]> = [
  [/^\/customer\/v1\/quotes\/[^/]+\/(documents|information)(\/|$)/, 'documents'],
  [/^\/c\/[^/]+\/documents$/, 'documents'],
  [/^\/customer\/v1\/quotes\/[^/]+(\/|$)/, 'case-workflow'],
  [/^\/c\/[^/]+(\/|$)/, 'case-workflow'],
  [/^\/lender\/v1\/[^/]+\/events$/, 'case-workflow'],
  [/^\/signing\/v1\/events$/, 'case-workflow'],
  [/^\/ops\/(?!v1\/session-config$)/, 'backoffice'],
  [/^\/console(\/|$)/, 'backoffice'],
];

export function keylessService(path: string): ServiceName | undefined {
  return KEYLESS_RULES.find(([pattern]) => pattern.test(path))?.[1];
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
