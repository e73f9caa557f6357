import type { StatusChange } from '@rental/proto';

export type ResourceType = StatusChange['resourceType'];

/** fromStatus of a quote, contract or quote request that was just created. */
export const NEW_STATUS = 'new';

/**
 * occurredAt of the next change of a case: now, but always at least 1 ms after the case's
 * previous change, so a receiver ordering by occurredAt sees the changes in the order they were
 * made even when several happen within one millisecond or the clock steps back.
 */
export function nextOccurredAt(now: Date, previous: Date | null): Date {
  if (previous === null || now.getTime() > previous.getTime()) return now;
  return new Date(previous.getTime() + 1);
}
