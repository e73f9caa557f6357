import { AsyncLocalStorage } from 'node:async_hooks';
import { randomHex } from '@rental/ids';

/** The W3C Trace Context header (https://www.w3.org/TR/trace-context/): `00-<trace id>-<parent id>-<flags>`. */
export const TRACEPARENT_HEADER = 'traceparent';

/** The work in hand: its W3C trace, this process's span of it, and the request id that started it. */
export interface TraceScope {
  /** 32 lower-case hex digits, the same in every process the work reaches. */
  traceId: string;
  /** 16 lower-case hex digits naming this process's part of the work; the parent id of what it calls. */
  spanId: string;
  /** Two hex digits; `01` (sampled) unless the caller sent other flags. */
  flags: string;
  requestId?: string;
}

/** What a hop (header, metadata) or a stored job carries, so the work goes on in the same trace. */
export interface TraceOrigin {
  traceparent?: string | null;
  requestId?: string | null;
}

const scope = new AsyncLocalStorage<TraceScope>();

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZEROS = /^0+$/;

/**
 * The trace id, parent id and flags of a `traceparent` value, or undefined when it is not one.
 * As the recommendation asks: version ff and all-zero ids are invalid, version 00 has exactly
 * four fields, and a later version is read by its first four.
 */
export function parseTraceparent(value: unknown): { traceId: string; parentId: string; flags: string } | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (ALL_ZEROS.test(traceId) || ALL_ZEROS.test(parentId)) return undefined;
  return { traceId, parentId, flags };
}

/** A new span: in the trace `origin.traceparent` (as received: any value) names when it is valid, else in a new trace. */
export function continueTrace(origin: { traceparent?: unknown; requestId?: string | null } = {}): TraceScope {
  const parent = parseTraceparent(origin.traceparent);
  return {
    traceId: parent?.traceId ?? randomHex(16),
    spanId: randomHex(8),
    flags: parent?.flags ?? '01',
    ...(origin.requestId ? { requestId: origin.requestId } : {}),
  };
}

/** Runs `work` in `trace`: log lines, outgoing calls and stored jobs written meanwhile carry it. */
export function withTrace<T>(trace: TraceScope, work: () => T): T {
  return scope.run(trace, work);
}

/** Runs `work` as a new span of the work `origin` describes (an incoming hop, a stored job). */
export function inTraceOf<T>(origin: TraceOrigin, work: () => T): T {
  return withTrace(continueTrace(origin), work);
}

/** The trace of the request, call, message or job being handled, if any. */
export function currentTrace(): TraceScope | undefined {
  return scope.getStore();
}

/** The request id of the request, call, message or job being handled, if any. */
export function currentRequestId(): string | undefined {
  return scope.getStore()?.requestId;
}

/** The `traceparent` this span hands to what it calls: its trace, itself as the parent. */
export function traceparentOf(trace: TraceScope): string {
  return `00-${trace.traceId}-${trace.spanId}-${trace.flags}`;
}

/** What a stored job or an outgoing message keeps of the current work (nulls outside any). */
export function currentOrigin(): { traceparent: string | null; requestId: string | null } {
  const trace = scope.getStore();
  return { traceparent: trace ? traceparentOf(trace) : null, requestId: trace?.requestId ?? null };
}

/** Headers of an outgoing HTTP call (webhook, lender, signing provider): the current `traceparent`, if any. */
export function traceHeaders(): Record<string, string> {
  const trace = scope.getStore();
  return trace ? { [TRACEPARENT_HEADER]: traceparentOf(trace) } : {};
}
