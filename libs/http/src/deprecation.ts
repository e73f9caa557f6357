/**
 * Response headers of a deprecated behaviour (RFC 8594 Sunset, Deprecation, successor Link).
 * Every deprecation of the platform currently ends on the same day.
 */
export const SUNSET_HTTP_DATE = 'Mon, 01 Feb 2027 00:00:00 GMT';

export function deprecationHeaders(options: { successor: string; deprecatedFields?: string[] }): Record<string, string> {
  const headers: Record<string, string> = {
    Deprecation: 'true',
    Sunset: SUNSET_HTTP_DATE,
    Link: `<${options.successor}>; rel="successor-version"`,
  };
  if (options.deprecatedFields?.length) headers['X-Deprecated-Fields'] = options.deprecatedFields.join(', ');
  return headers;
}

/** Where the Idempotency-Key header of checkout is documented. */
export const IDEMPOTENCY_KEY_DOCUMENTATION = '/api/docs#/Carts/checkoutCart';

/**
 * A checkout without Idempotency-Key is the deprecated form of the request, so every answer to it
 * says so, errors included (the gateway adds these before anything else can answer).
 */
export function keylessCheckoutHeaders(): Record<string, string> {
  return {
    Deprecation: 'true',
    Sunset: SUNSET_HTTP_DATE,
    Link: `<${IDEMPOTENCY_KEY_DOCUMENTATION}>; rel="deprecation"`,
    Warning: '299 - "Send an Idempotency-Key header; it becomes required on 2027-02-01"',
  };
}
