import { Metadata } from '@grpc/grpc-js';

export const METADATA_KEYS = {
  requestId: 'x-request-id',
  /** The caller's W3C trace context, so the callee's lines carry the same trace id. */
  traceparent: 'traceparent',
  /** JSON of the domain error a handler raised, so the caller can rebuild it exactly. */
  problem: 'rental-problem-bin',
} as const;

export function firstValue(metadata: Metadata, key: string): string {
  const [value] = metadata.get(key);
  if (value === undefined) return '';
  return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
}
