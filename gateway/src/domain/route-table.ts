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

/**
 * The customer's paths: the link token is the credential (no API key). documents owns the
 * customer's uploads and answers, case-workflow the offer, its answers and the page.
 */
const CUSTOMER_RULES: ReadonlyArray<readonly [RegExp, ServiceName]> = [
  [/^\/customer\/v1\/quotes\/[^/]+\/(documents|information)(\/|$)/, 'documents'],
  [/^\/c\/[^/]+\/documents$/, 'documents'],
  [/^\/customer\/v1\/quotes\/[^/]+(\/|$)/, 'case-workflow'],
  [/^\/c\/[^/]+(\/|$)/, 'case-workflow'],
];

export function customerService(path: string): ServiceName | undefined {
  return CUSTOMER_RULES.find(([pattern]) => pattern.test(path))?.[1];
}

export function owningService(path: string): ServiceName | undefined {
  return RULES.find(([pattern]) => pattern.test(path))?.[1];
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
