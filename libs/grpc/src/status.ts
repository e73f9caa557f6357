import { status as GrpcStatus } from '@grpc/grpc-js';
import type { ErrorKind } from '@rental/problem';

const codeByKind: Record<ErrorKind, GrpcStatus> = {
  invalid_input: GrpcStatus.INVALID_ARGUMENT,
  unauthenticated: GrpcStatus.UNAUTHENTICATED,
  forbidden: GrpcStatus.PERMISSION_DENIED,
  not_found: GrpcStatus.NOT_FOUND,
  // Answered as state, not as an error, where a caller must tell it from not_found (ResolveCustomerLink).
  gone: GrpcStatus.NOT_FOUND,
  method_not_allowed: GrpcStatus.UNIMPLEMENTED,
  conflict: GrpcStatus.ALREADY_EXISTS,
  payload_too_large: GrpcStatus.INVALID_ARGUMENT,
  unsupported_media_type: GrpcStatus.INVALID_ARGUMENT,
  rule_violation: GrpcStatus.FAILED_PRECONDITION,
  rate_limited: GrpcStatus.RESOURCE_EXHAUSTED,
  unavailable: GrpcStatus.UNAVAILABLE,
  // The kind itself travels in the problem metadata; the code only tells gRPC tooling it was upstream.
  bad_gateway: GrpcStatus.UNAVAILABLE,
  internal: GrpcStatus.INTERNAL,
};

const kindByCode = new Map<GrpcStatus, ErrorKind>([
  [GrpcStatus.INVALID_ARGUMENT, 'invalid_input'],
  [GrpcStatus.OUT_OF_RANGE, 'invalid_input'],
  [GrpcStatus.UNAUTHENTICATED, 'unauthenticated'],
  [GrpcStatus.PERMISSION_DENIED, 'forbidden'],
  [GrpcStatus.NOT_FOUND, 'not_found'],
  [GrpcStatus.ALREADY_EXISTS, 'conflict'],
  [GrpcStatus.ABORTED, 'conflict'],
  [GrpcStatus.FAILED_PRECONDITION, 'rule_violation'],
  [GrpcStatus.RESOURCE_EXHAUSTED, 'rate_limited'],
  [GrpcStatus.UNAVAILABLE, 'unavailable'],
  [GrpcStatus.DEADLINE_EXCEEDED, 'unavailable'],
  [GrpcStatus.CANCELLED, 'unavailable'],
]);

export function grpcStatusOf(kind: ErrorKind): GrpcStatus {
  return codeByKind[kind];
}

/** The error kind of a gRPC status; the HTTP status follows from the kind. */
export function errorKindOf(code: GrpcStatus): ErrorKind {
  return kindByCode.get(code) ?? 'internal';
}
