import { STATUS_CHANGED_EVENT, StatusChangedEvent } from '@rental/proto';

export type ResourceType = StatusChangedEvent['data']['resourceType'];

/** fromStatus of a quote, contract or quote request that was just created. */
export const NEW_STATUS = 'new';

export interface StatusChange {
  id: string;
  occurredAt: Date;
  financingCaseId: string;
  quoteId: string;
  partnerId: string;
  environment: string;
  resourceType: ResourceType;
  fromStatus: string;
  toStatus: string;
  /** The case's (its quote's) status right after the change. */
  caseStatus: string;
  transition: string;
}

/**
 * occurredAt of the next change of a case: now, but always at least 1 ms after the case's
 * previous change, so a receiver ordering by occurredAt sees the changes in the order they were
 * made even when several happen within one millisecond or the clock steps back.
 */
export function nextOccurredAt(now: Date, previous: Date | null): Date {
  if (previous === null || now.getTime() > previous.getTime()) return now;
  return new Date(previous.getTime() + 1);
}

export function statusChangedEvent(change: StatusChange): StatusChangedEvent {
  return {
    id: change.id,
    event: STATUS_CHANGED_EVENT,
    occurredAt: change.occurredAt.toISOString(),
    version: 1,
    data: {
      financingCaseId: change.financingCaseId,
      quoteId: change.quoteId,
      resourceType: change.resourceType,
      fromStatus: change.fromStatus,
      toStatus: change.toStatus,
      status: change.caseStatus,
      transition: change.transition,
    },
    partnerId: change.partnerId,
    environment: change.environment,
  };
}
