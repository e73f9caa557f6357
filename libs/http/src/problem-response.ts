import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Logger } from '@rental/logger';
import { DomainError, PROBLEM_CONTENT_TYPE, ProblemDocument, isDomainError, problemInstance, toProblem } from '@rental/problem';

/** Maps an infrastructure error (database down, dependency unavailable) to a domain error, or returns undefined. */
export type ErrorMapper = (error: unknown) => DomainError | undefined;

interface BodyParserError {
  type?: string;
  status?: number;
}

function bodyParserError(error: unknown): DomainError | undefined {
  const type = (error as BodyParserError | null)?.type;
  switch (type) {
    case 'entity.parse.failed':
      return new DomainError('invalid_input', 'request.malformed_json', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new DomainError('payload_too_large', 'request.too_large', 'The request body is larger than this endpoint accepts.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new DomainError('unsupported_media_type', 'request.unsupported_encoding', 'The request body encoding is not supported.');
    case 'request.aborted':
      return new DomainError('invalid_input', 'request.aborted', 'The request body was not received completely.');
    default:
      return undefined;
  }
}

/** The problem a client sees for any error: never a stack trace, never HTML. */
export function problemFor(error: unknown, mappers: ErrorMapper[], log: Logger): ProblemDocument {
  const known = isDomainError(error) ? error : (bodyParserError(error) ?? mappers.map((map) => map(error)).find(Boolean));
  if (known) {
    if (known.kind === 'unavailable' || known.kind === 'bad_gateway' || known.kind === 'internal')
      log.warn({ err: error, code: known.code }, 'request failed on a dependency');
    return toProblem(known);
  }
  log.error({ err: error }, 'unexpected error');
  return toProblem(new DomainError('internal', 'internal_error', 'An unexpected error occurred. Quote the X-Request-Id header when you contact support.'));
}

const firstValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();

/**
 * The address the client used, as the ingress and the gateway forward it (X-Forwarded-Proto and
 * -Host, else Host): the base of a problem `type` when PUBLIC_BASE_URL is not configured.
 */
function requestBase(req: IncomingMessage | undefined): string | undefined {
  if (!req) return undefined;
  const host = firstValue(req.headers['x-forwarded-host']) || req.headers.host;
  const protocol = firstValue(req.headers['x-forwarded-proto']) || ((req.socket as TLSSocket | undefined)?.encrypted ? 'https' : 'http');
  if (!host || !/^[A-Za-z0-9.:[\]-]+$/.test(host) || (protocol !== 'http' && protocol !== 'https')) return undefined;
  return `${protocol}://${host}`;
}

/**
 * The absolute URL of a path of this deployment: under PUBLIC_BASE_URL when it is configured,
 * else under the address the client used (as the problem types are).
 */
export function publicUrlOf(path: string, req: IncomingMessage, publicBaseUrl: string | undefined): string {
  return `${publicBaseUrl?.replace(/\/+$/, '') ?? requestBase(req) ?? ''}${path}`;
}

/**
 * A problem as one response sends it: a relative `type` resolved against the request's address,
 * and `instance` naming the request by the X-Request-Id the response carries.
 */
export function problemOfResponse(problem: ProblemDocument, res: ServerResponse): ProblemDocument {
  const requestId = res.getHeader('x-request-id');
  const type = problem.type.startsWith('/') ? `${requestBase(res.req) ?? ''}${problem.type}` : problem.type;
  return { ...problem, type, ...(typeof requestId === 'string' ? { instance: problemInstance(requestId) } : {}) };
}

/** Writes a problem response; plain node:http, so the gateway's hot path can use it without express. */
export function sendProblem(res: ServerResponse, problem: ProblemDocument, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(problemOfResponse(problem, res));
  res.statusCode = problem.status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', `${PROBLEM_CONTENT_TYPE}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
