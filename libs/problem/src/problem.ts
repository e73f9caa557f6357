import { DomainError, ErrorKind, ProblemCode, Violation } from './domain-error';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
/** Where the page of a problem type lives, under the public base: `/problems/{code}` (the gateway serves it). */
export const PROBLEM_TYPE_PATH = '/problems/';

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** `urn:request:<request id>`: this occurrence, by the request id of the answer (X-Request-Id). */
  instance?: string;
  violations?: Violation[];
  [member: string]: unknown;
}

/** What a problem type's page says; `title` is also the title of every problem of that type. */
export interface ProblemDescription {
  /** Short, in the problem's own words, e.g. "Financing case not found". */
  title: string;
  /** What happened. */
  meaning: string;
  /** What to do about it. */
  fix: string;
}

/** Every problem code a deployment answers with, by code. */
export type ProblemCatalogue = Readonly<Record<string, ProblemDescription>>;

let described: { catalogue: ProblemCatalogue; baseUrl: string } = { catalogue: {}, baseUrl: '' };

/**
 * Set once per process at start (service host, gateway): titles come from the catalogue, and
 * `type` is `{baseUrl}/problems/{code}`. Without a base URL (PUBLIC_BASE_URL unset) `type` is
 * the reference `/problems/{code}`, which the HTTP layer resolves against the request's address.
 */
export function describeProblems(catalogue: ProblemCatalogue, baseUrl?: string): void {
  described = { catalogue, baseUrl: (baseUrl ?? '').replace(/\/+$/, '') };
}

/** The catalogue's entry of a code, if it has one. */
export function problemDescription(code: string): ProblemDescription | undefined {
  return Object.hasOwn(described.catalogue, code) ? described.catalogue[code] : undefined;
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

const reasonByStatus: Record<number, string> = {
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

/** The HTTP reason phrase of a status (a problem's title only when its code is not in the catalogue). */
export function reasonPhrase(status: number): string {
  return reasonByStatus[status] ?? 'Error';
}

/** The URL of a code's page: `{base}/problems/{code}`. */
export function problemType(code: string): string {
  return `${described.baseUrl}${PROBLEM_TYPE_PATH}${code.replace(/[^a-zA-Z0-9_.-]/g, '-')}`;
}

/** The `instance` of a problem answered to one request. */
export function problemInstance(requestId: string): string {
  return `urn:request:${requestId}`;
}

/** The problem document of a domain error: extra members first, so they cannot override the standard ones. */
export function toProblem(error: DomainError): ProblemDocument {
  const status = httpStatusOf(error.kind);
  const document: ProblemDocument = {
    ...(error.extra ?? {}),
    type: problemType(error.code),
    title: problemDescription(error.code)?.title ?? reasonPhrase(status),
    status,
    detail: error.detail,
  };
  if (error.violations) document.violations = error.violations;
  else if (status === 422) document.violations = [];
  return document;
}

/** Rebuilds a domain error from a problem document (for example one received over gRPC). */
export function fromProblem(document: ProblemDocument, code: ProblemCode): DomainError {
  const { type: _type, title: _title, instance: _instance, status, detail, violations, ...extra } = document;
  return new DomainError(kindOfHttpStatus(status), code, detail, {
    violations,
    extra: Object.keys(extra).length > 0 ? extra : undefined,
  });
}
