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
