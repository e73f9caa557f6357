import type { ServerResponse } from 'node:http';
import type { Logger } from '@rental/logger';
import { DomainError, PROBLEM_CONTENT_TYPE, ProblemDocument, isDomainError, toProblem } from '@rental/problem';

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
  const known = isDomainError(error) ? error : bodyParserError(error) ?? mappers.map((map) => map(error)).find(Boolean);
  if (known) {
    if (known.kind === 'unavailable' || known.kind === 'bad_gateway' || known.kind === 'internal') log.warn({ err: error, code: known.code }, 'request failed on a dependency');
    return toProblem(known);
  }
  log.error({ err: error }, 'unexpected error');
  return toProblem(new DomainError('internal', 'internal_error', 'An unexpected error occurred. Quote the X-Request-Id header when you contact support.'));
}

/** Writes a problem response; plain node:http, so the gateway's hot path can use it without express. */
export function sendProblem(res: ServerResponse, problem: ProblemDocument, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(problem);
  res.statusCode = problem.status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', `${PROBLEM_CONTENT_TYPE}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
