import type { Bus } from '@rental/bus';
import type { Logger } from '@rental/logger';
import { STATUS_CHANGED_SUBJECT, statusChangedEvent } from '@rental/proto';
import { QuoteRequestStore, followCaseStatus } from '../../domain/quote-request';

/**
 * The durable consumer of case status changes: a canceled quote cancels its quote request. The
 * message is acked after the move committed; a redelivery finds the quote request canceled
 * already and changes nothing.
 */
export function consumeCaseStatusChanges(bus: Bus, store: QuoteRequestStore, log: Logger): void {
  bus.consume<unknown>({
    subject: STATUS_CHANGED_SUBJECT,
    handler: async ({ data, sequence, requestId }) => {
      const parsed = statusChangedEvent.safeParse(data);
      if (!parsed.success) {
        // Redelivering a message we cannot read would block the stream forever.
        log.error({ sequence, requestId, issues: parsed.error.issues.slice(0, 5) }, 'dropping a status change that is not a valid event');
        return;
      }
      const { partnerId, occurredAt, data: change } = parsed.data;
      if (await followCaseStatus(store, { partnerId, occurredAt, ...change })) {
        log.info({ eventId: parsed.data.id, requestId, financingCaseId: change.financingCaseId }, 'quote request canceled with its quote');
      }
    },
  });
}
