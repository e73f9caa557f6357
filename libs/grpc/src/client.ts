import * as grpc from '@grpc/grpc-js';
import { grpcClientDuration } from '@rental/metrics';
import { currentTrace, traceparentOf } from '@rental/logger';
import { DomainError, ErrorKind, ProblemCode } from '@rental/problem';
import { signedCallMetadata } from './identity';
import { METADATA_KEYS, firstValue } from './metadata';
import { channelCredentials } from './tls';
import { errorKindOf } from './status';

export interface OutgoingCallContext {
  partnerId?: string;
  requestId?: string;
}

interface ProblemPayload {
  kind: ErrorKind;
  /** The callee's DomainError code, a catalogued one. */
  code: ProblemCode;
  detail: string;
  violations?: DomainError['violations'];
  extra?: Record<string, unknown>;
}

type UnaryMethod = (
  request: unknown,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: (error: grpc.ServiceError | null, response: unknown) => void,
) => void;

const CLIENT_OPTIONS: grpc.ChannelOptions = {
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.max_receive_message_length': 16 * 1024 * 1024,
};

export function createGrpcClient<Client extends grpc.Client>(
  ClientClass: new (address: string, credentials: grpc.ChannelCredentials, options: grpc.ChannelOptions) => Client,
  address: string,
): Client {
  return new ClientClass(address, channelCredentials(), CLIENT_OPTIONS);
}

function toDomainError(error: grpc.ServiceError, method: string): DomainError {
  const raw = error.metadata ? firstValue(error.metadata, METADATA_KEYS.problem) : '';
  if (raw) {
    const payload = JSON.parse(raw) as ProblemPayload;
    return new DomainError(payload.kind, payload.code, payload.detail, { violations: payload.violations, extra: payload.extra });
  }
  const kind = errorKindOf(error.code);
  if (kind === 'unavailable') {
    return new DomainError('unavailable', 'dependency.unavailable', 'A service this request depends on is not available right now. Retry later.', {
      cause: error,
    });
  }
  return new DomainError(kind === 'internal' ? 'internal' : kind, 'dependency.failed', `An internal call failed (${method}).`, { cause: error });
}

/**
 * Calls a unary method with a deadline and, as metadata, the identity of this service and the
 * partner and request id it acts for, signed (identity.ts), and the current trace context. A domain error raised by the callee
 * is rebuilt, so it reaches the partner unchanged.
 */
export async function callUnary<Response>(
  client: grpc.Client,
  method: string,
  request: object,
  context: OutgoingCallContext,
  deadlineMs: number,
): Promise<Response> {
  const fn = (client as unknown as Record<string, UnaryMethod>)[method];
  if (typeof fn !== 'function') throw new Error(`no rpc method ${method}`);
  // The request id given, else the one of the work in hand, so the callee's lines carry it too.
  const trace = currentTrace();
  const requestId = context.requestId || trace?.requestId;
  const metadata = await signedCallMetadata(context.partnerId || undefined);
  if (requestId) metadata.set(METADATA_KEYS.requestId, requestId);
  if (trace) metadata.set(METADATA_KEYS.traceparent, traceparentOf(trace));
  const started = process.hrtime.bigint();
  return new Promise<Response>((resolve, reject) => {
    fn.call(client, request, metadata, { deadline: Date.now() + deadlineMs }, (error, response) => {
      grpcClientDuration.observe({ method, code: grpc.status[error ? error.code : grpc.status.OK] }, Number(process.hrtime.bigint() - started) / 1e9);
      if (error) reject(toDomainError(error, method));
      else resolve(response as Response);
    });
  });
}

type UnaryMethodNames<Client> = {
  [Name in keyof Client]: Client[Name] extends (argument: any, callback: grpc.requestCallback<any>) => grpc.ClientUnaryCall ? Name : never;
}[keyof Client] &
  string;
type RequestOf<Method> = Method extends (argument: infer Request, callback: grpc.requestCallback<any>) => grpc.ClientUnaryCall ? Request : never;
type ResponseOf<Method> = Method extends (argument: any, callback: grpc.requestCallback<infer Response>) => grpc.ClientUnaryCall ? Response : never;

/** A generated client with typed, promise-returning unary calls that always carry a deadline. */
export class TypedClient<Client extends grpc.Client> {
  constructor(
    readonly client: Client,
    private readonly deadlineMs: number,
  ) {}

  call<Name extends UnaryMethodNames<Client>>(method: Name, request: RequestOf<Client[Name]>, context: OutgoingCallContext): Promise<ResponseOf<Client[Name]>> {
    return callUnary<ResponseOf<Client[Name]>>(this.client, method, request as object, context, this.deadlineMs);
  }

  close(): void {
    this.client.close();
  }
}
