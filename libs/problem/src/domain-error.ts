/**
 * What went wrong, in terms every transport can map: HTTP turns the kind into a status,
 * gRPC into a status code. Domain code never names an HTTP status.
 */
export type ErrorKind =
  | 'invalid_input'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'gone'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rule_violation'
  | 'rate_limited'
  | 'unavailable'
  | 'bad_gateway'
  | 'internal';

export interface Violation {
  propertyPath: string;
  message: string;
  code: string;
}

/**
 * Where the platform's catalogue of problem codes registers them (declaration merging): @rental/proto
 * adds `codes: keyof typeof PROBLEM_CATALOGUE`, so in every program that includes the catalogue tsc
 * rejects a code it does not describe. A lib compiled on its own, without the catalogue, takes any string.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by module augmentation
export interface ProblemCodeRegister {}

/** A code of the problem catalogue: the only codes a domain error may carry. */
export type ProblemCode = ProblemCodeRegister extends { codes: infer Code extends string } ? Code : string;

export interface DomainErrorOptions {
  violations?: Violation[];
  /** Extra members of the problem document (for example the empty calculation of a forced failure). */
  extra?: Record<string, unknown>;
  /** When to try again, for a refusal that passes (rate_limited): HTTP sends it as Retry-After. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class DomainError extends Error {
  readonly violations?: Violation[];
  readonly extra?: Record<string, unknown>;
  readonly retryAfterSeconds?: number;

  constructor(
    readonly kind: ErrorKind,
    /** Stable, machine-readable code, for example `cart.not_found`. */
    readonly code: ProblemCode,
    /** Human-readable detail shown to the partner. */
    detail: string,
    options: DomainErrorOptions = {},
  ) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.violations = options.violations;
    this.extra = options.extra;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get detail(): string {
    return this.message;
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

export function violation(propertyPath: string, code: string, message: string): Violation {
  return { propertyPath, code, message };
}

/** A 422 carrying the violations of one request; the detail lists them the way partners read logs. */
export function validationFailed(violations: Violation[], detail?: string): DomainError {
  const summary = detail ?? violations.map((v) => (v.propertyPath ? `${v.propertyPath}: ${v.message}` : v.message)).join('\n');
  return new DomainError('rule_violation', 'validation_failed', summary, { violations });
}

export function notFound(code: ProblemCode, detail: string): DomainError {
  return new DomainError('not_found', code, detail);
}

export function forbidden(code: ProblemCode, detail: string): DomainError {
  return new DomainError('forbidden', code, detail);
}

export function conflict(code: ProblemCode, detail: string): DomainError {
  return new DomainError('conflict', code, detail);
}

export function invalidInput(code: ProblemCode, detail: string, violations?: Violation[]): DomainError {
  return new DomainError('invalid_input', code, detail, { violations });
}

/**
 * Reads an amount of a message whose caller validated it already (a gRPC request): one that does
 * not parse is the caller's bug, answered as invalid input naming the field, never as a 500.
 */
export function parsedAmount<T>(code: ProblemCode, field: string, read: () => T): T {
  try {
    return read();
  } catch {
    throw invalidInput(code, `${field} is not a valid amount.`);
  }
}

export function ruleViolation(code: ProblemCode, detail: string, violations?: Violation[]): DomainError {
  return new DomainError('rule_violation', code, detail, { violations });
}

export function unavailable(code: ProblemCode, detail: string, cause?: unknown): DomainError {
  return new DomainError('unavailable', code, detail, { cause });
}

/** An outside party this request depends on (a lender, a provider) answered with a failure or not at all: 502. */
export function badGateway(code: ProblemCode, detail: string, cause?: unknown): DomainError {
  return new DomainError('bad_gateway', code, detail, { cause });
}

/** Something that existed and ended for good (an expired or replaced link): 410. */
export function gone(code: ProblemCode, detail: string): DomainError {
  return new DomainError('gone', code, detail);
}
