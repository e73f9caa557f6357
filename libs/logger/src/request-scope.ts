import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

/**
 * Runs `work` with a request id that code further down (an outbox write, say) can read
 * without it being passed through every call, so the id follows a request into its events.
 */
export function withRequestId<T>(requestId: string | undefined, work: () => T): T {
  return requestId ? scope.run(requestId, work) : work();
}

/** The request id of the HTTP request, gRPC call or event being handled, if any. */
export function currentRequestId(): string | undefined {
  return scope.getStore();
}
