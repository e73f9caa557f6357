import { DomainError, ErrorKind, Violation } from './domain-error';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
const PROBLEM_TYPE_BASE = 'https://partner-rental-api.example/problems/';

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  violations?: Violation[];
  [member: string]: unknown;
}

const statusByKind: Record<ErrorKind, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  gone: 410,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rule_violation: 422,
  rate_limited: 429,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
};

const titleByStatus: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  410: 'Gone',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function httpStatusOf(kind: ErrorKind): number {
  return statusByKind[kind];
}

export function kindOfHttpStatus(status: number): ErrorKind {
  const match = (Object.entries(statusByKind) as [ErrorKind, number][]).find(([, s]) => s === status);
  return match ? match[0] : status >= 500 ? 'internal' : 'invalid_input';
}

export function problemTitle(status: number): string {
  return titleByStatus[status] ?? 'Error';
}

export function problemType(code: string): string {
  return PROBLEM_TYPE_BASE + code.replace(/[^a-zA-Z0-9_.-]/g, '-');
}

/** The problem document of a domain error: extra members first, so they cannot override the standard ones. */
export function toProblem(error: DomainError): ProblemDocument {
  const status = httpStatusOf(error.kind);
  const document: ProblemDocument = {
    ...(error.extra ?? {}),
    type: problemType(error.code),
    title: problemTitle(status),
    status,
    detail: error.detail,
  };
  if (error.violations) document.violations = error.violations;
  else if (status === 422) document.violations = [];
  return document;
}

/** Rebuilds a domain error from a problem document (for example one received over gRPC). */
export function fromProblem(document: ProblemDocument, code: string): DomainError {
  const { type: _type, title: _title, status, detail, violations, ...extra } = document;
  return new DomainError(kindOfHttpStatus(status), code, detail, {
    violations,
    extra: Object.keys(extra).length > 0 ? extra : undefined,
  });
}
