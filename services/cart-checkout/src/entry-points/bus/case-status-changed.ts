import { type Bus, validatedHandler } from '@rental/bus';
import type { Logger } from '@rental/logger';
import { QUOTE_CANCELED_SUBJECT, STATUS_CHANGED_SUBJECT, statusChangedEvent } from '@rental/proto';
import { followCaseStatus } from '../../domain/quote-request';
import type { QuoteRequestStore } from '../../domain/ports';

/**
 * The durable consumer of quote cancellations (the server filters out the other status changes):
 * a canceled quote cancels its quote request. The message is acked after the move committed; a
 * redelivery finds the quote request canceled already and changes nothing.
 */
export function consumeCaseStatusChanges(bus: Bus, store: QuoteRequestStore, log: Logger): void {
  bus.consume({
    subject: QUOTE_CANCELED_SUBJECT,
    durable: 'cart-checkout-quote-cancels',
    // The durable kept for upgrades (the service's, of the single subject) is read while it exists.
    upgradeDurable: { durable: 'cart-checkout', subject: STATUS_CHANGED_SUBJECT },
    handler: validatedHandler(statusChangedEvent, log, 'a status change', async (event, requestId) => {
      const { partnerId, occurredAt, data: change } = event;
      if (await followCaseStatus(store, { partnerId, occurredAt, ...change })) {
        log.info({ eventId: event.id, requestId, financingCaseId: change.financingCaseId }, 'quote request canceled with its quote');
      }
    }),
  });
}
