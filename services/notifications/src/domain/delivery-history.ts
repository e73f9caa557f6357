import type { DeliveryHistoryReader, EndpointStore } from './ports';
import { findEndpoint } from './endpoints';

export interface AttemptHistory {
  attempt: number;
  attemptedAt: string;
  /** Null when no answer came (timeout, connection error, address refused). */
  statusCode: number | null;
  durationMs: number;
  succeeded: boolean;
  error: string | null;
}

export interface DeliveryHistory {
  eventId: string;
  /** The event type: financing_case.status_changed, or webhook_endpoint.test for a test event. */
  event: string;
  status: 'pending' | 'succeeded' | 'dropped';
  dropReason: string | null;
  attemptCount: number;
  nextAttemptAt: string | null;
  createdAt: string;
  completedAt: string | null;
  occurredAt: string;
  attempts: AttemptHistory[];
}

export async function deliveryHistory(
  deps: { endpoints: EndpointStore; history: DeliveryHistoryReader },
  partnerId: string,
  endpointId: string,
  window: { limit: number; offset: number },
): Promise<DeliveryHistory[]> {
  await findEndpoint(deps.endpoints, partnerId, endpointId);
  return deps.history.history(partnerId, endpointId, window.limit, window.offset);
}
