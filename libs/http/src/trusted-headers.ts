export const REQUEST_ID_HEADER = 'x-request-id';

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function isValidRequestId(value: unknown): value is string {
  return typeof value === 'string' && VALID_REQUEST_ID.test(value);
}

/** Headers only the gateway may set (the signed identity among them); it strips any a client sent. */
export function isInternalHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('x-rental-') || lower.startsWith('x-partner-');
}
