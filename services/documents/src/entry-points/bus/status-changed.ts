import { type Bus, validatedHandler } from '@rental/bus';
import type { Logger } from '@rental/logger';
import { QUOTE_CANCELED_SUBJECT, STATUS_CHANGED_SUBJECT, statusChangedEvent } from '@rental/proto';
import { onStatusChanged } from '../../domain/cancel';
import type { CaseCleanup } from '../../domain/ports';

/**
 * The durable consumer of quote cancellations, the only status changes documents acts on (the
 * server filters out the others). The message is acked after the handler resolved, that is after
 * the cleanup committed; a failure is redelivered, and applying an event twice changes nothing
 * (consumed_events).
 */
export function consumeStatusChanges(bus: Bus, deps: { cleanup: CaseCleanup; now(): Date }, log: Logger): void {
  bus.consume({
    subject: QUOTE_CANCELED_SUBJECT,
    durable: 'documents-quote-cancels',
    // The durable kept for upgrades (the service's, of the single subject) is read while it exists.
    upgradeDurable: { durable: 'documents', subject: STATUS_CHANGED_SUBJECT },
    handler: validatedHandler(statusChangedEvent, log, 'a status change', async (event, requestId) => {
      const result = await onStatusChanged(deps, event);
      if (result.applied) {
        log.info(
          { eventId: event.id, requestId, financingCaseId: event.data.financingCaseId, ...result },
          'case canceled: document tokens invalidated, callback requests closed',
        );
      }
    }),
  });
}
