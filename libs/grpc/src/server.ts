import * as grpc from '@grpc/grpc-js';
import type { Identity } from '@rental/identity';
import { type Logger, continueTrace, withTrace } from '@rental/logger';
import { grpcServerDuration } from '@rental/metrics';
import { DomainError, isDomainError } from '@rental/problem';
import type { ErrorMapper } from '@rental/http';
import { verifyCallIdentity } from './identity';
import { METADATA_KEYS, firstValue } from './metadata';
import { grpcStatusOf } from './status';
import { serverCredentials } from './tls';

export interface CallContext {
  /** The partner the caller's signed identity names; empty when it speaks for none. */
  partnerId: string;
  /** The calling service, from its signed identity. */
  caller: string;
  requestId: string;
  log: Logger;
}

export interface ServiceBinding {
  definition: grpc.ServiceDefinition;
  implementation: grpc.UntypedServiceImplementation;
}

function asServiceError(error: DomainError): Partial<grpc.ServiceError> {
  const metadata = new grpc.Metadata();
  metadata.set(
    METADATA_KEYS.problem,
    Buffer.from(
      JSON.stringify({
        kind: error.kind,
        code: error.code,
        detail: error.detail,
        violations: error.violations,
        extra: error.extra,
      }),
    ),
  );
  return { code: grpcStatusOf(error.kind), details: error.detail, metadata };
}

/**
 * Wraps a use case as a unary handler: a call without a valid signed identity fails
 * UNAUTHENTICATED before the use case runs; the identity becomes a CallContext, a domain error
 * travels to the caller intact, anything else is logged and answered INTERNAL.
 */
export function unaryHandler<Request, Response>(
  method: string,
  log: Logger,
  mappers: ErrorMapper[],
  handler: (request: Request, context: CallContext) => Promise<Response>,
): grpc.handleUnaryCall<Request, Response> {
  return (call, callback) => {
    const started = process.hrtime.bigint();
    const requestId = firstValue(call.metadata, METADATA_KEYS.requestId);
    const trace = continueTrace({ traceparent: firstValue(call.metadata, METADATA_KEYS.traceparent), requestId });
    let partnerId = '';
    let caller: string | undefined;
    const finish = (code: grpc.status) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      grpcServerDuration.observe({ method, code: grpc.status[code] }, seconds);
      // The access line of a call, as the HTTP apps write one per request; written by the
      // process's logger with the call's fields, because a child logger per call (pino
      // serialises and redacts its bindings) cost more than the line itself.
      log.info({ requestId, traceId: trace.traceId, rpc: method, caller, code: grpc.status[code], ms: Math.round(seconds * 1e4) / 10, partnerId }, 'rpc');
    };
    const serve = async () => {
      let identity: Identity;
      try {
        identity = await verifyCallIdentity(call.metadata);
      } catch (error) {
        log.warn({ rpc: method, reason: (error as Error).message }, 'rpc without a valid signed identity refused');
        finish(grpc.status.UNAUTHENTICATED);
        callback({ code: grpc.status.UNAUTHENTICATED, details: 'a signed internal identity is required' });
        return;
      }
      partnerId = identity.partnerId ?? '';
      caller = identity.caller;
      // Most calls log nothing but their access line: their logger is made on first use.
      let callLog: Logger | undefined;
      const context: CallContext = {
        partnerId,
        caller: identity.caller,
        requestId,
        get log() {
          callLog ??= log.child({ requestId, traceId: trace.traceId, rpc: method, caller: identity.caller });
          return callLog;
        },
      };
      try {
        const response = await handler(call.request, context);
        finish(grpc.status.OK);
        callback(null, response);
      } catch (error) {
        const known = isDomainError(error) ? error : mappers.map((map) => map(error)).find(Boolean);
        if (known) {
          finish(grpcStatusOf(known.kind));
          callback(asServiceError(known));
          return;
        }
        context.log.error({ err: error }, 'unexpected error in rpc');
        finish(grpc.status.INTERNAL);
        callback({ code: grpc.status.INTERNAL, details: 'internal error' });
      }
    };
    void withTrace(trace, serve);
  };
}

/** The use case behind each unary rpc of a generated handlers interface (its index signature left out). */
export type UnaryUseCases<Handlers> = {
  [Name in keyof Handlers as string extends Name ? never : Name]: Handlers[Name] extends grpc.handleUnaryCall<infer Request, infer Response>
    ? (request: Request, context: CallContext) => Promise<Response>
    : never;
};

/**
 * A unaryHandler for each rpc, named after its key, so a service lists only its use cases; Handlers
 * is the generated handlers interface (or a Pick of it for a part of the service).
 */
export function unaryHandlers<Handlers>(log: Logger, mappers: ErrorMapper[], useCases: UnaryUseCases<Handlers>): Handlers {
  const entries = Object.entries(useCases as Record<string, (request: unknown, context: CallContext) => Promise<unknown>>);
  return Object.fromEntries(entries.map(([method, useCase]) => [method, unaryHandler(method, log, mappers, useCase)])) as Handlers;
}

export interface RunningGrpcServer {
  port: number;
  stop(graceMs: number): Promise<void>;
}

export async function startGrpcServer(host: string, port: number, bindings: ServiceBinding[]): Promise<RunningGrpcServer> {
  const server = new grpc.Server({ 'grpc.max_receive_message_length': 16 * 1024 * 1024 });
  for (const binding of bindings) server.addService(binding.definition, binding.implementation);
  const boundPort = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${host}:${port}`, serverCredentials(), (error, actual) => (error ? reject(error) : resolve(actual)));
  });
  return {
    port: boundPort,
    stop: (graceMs) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        timer.unref();
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
