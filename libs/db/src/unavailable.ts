import { DomainError } from '@rental/problem';

// Connection failures, server shutdown and "cannot connect now" states of Postgres.
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300']);
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message, name } = error as { code?: string; message?: string; name?: string };
  if (code && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_NODE_CODES.has(code))) return true;
  if (name === 'KnexTimeoutError') return true;
  return (
    typeof message === 'string' && /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(message)
  );
}

/** Error mapper for the HTTP and gRPC layers: Postgres unreachable is a 503, not a 500. */
export function mapDatabaseError(error: unknown): DomainError | undefined {
  if (!isDatabaseUnavailable(error)) return undefined;
  return new DomainError('unavailable', 'dependency.database_unavailable', 'The service cannot reach its database right now. Retry later.', { cause: error });
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
