/**
 * Headers only the gateway may set. It strips any client-sent `x-rental-*` and `x-partner-*`
 * header before adding these, so a service can trust them.
 */
export const TRUSTED_HEADERS = {
  partnerId: 'x-rental-partner-id',
  environment: 'x-rental-environment',
  roles: 'x-rental-roles',
} as const;

export const REQUEST_ID_HEADER = 'x-request-id';

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function isValidRequestId(value: unknown): value is string {
  return typeof value === 'string' && VALID_REQUEST_ID.test(value);
}

export function isInternalHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('x-rental-') || lower.startsWith('x-partner-');
}
