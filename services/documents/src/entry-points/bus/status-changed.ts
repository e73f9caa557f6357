import type { Bus } from '@rental/bus';
import type { Logger } from '@rental/logger';
import { STATUS_CHANGED_SUBJECT, statusChangedEvent } from '@rental/proto';
import { onStatusChanged } from '../../domain/cancel';
import type { CaseCleanup } from '../../domain/ports';

/**
 * The durable consumer of status changes. The message is acked after the handler resolved, that
 * is after the cleanup committed; a failure is redelivered, and applying an event twice changes
 * nothing (consumed_events).
 */
export function consumeStatusChanges(bus: Bus, deps: { cleanup: CaseCleanup; now(): Date }, log: Logger): void {
  bus.consume<unknown>({
    subject: STATUS_CHANGED_SUBJECT,
    handler: async ({ data, sequence, requestId }) => {
      const parsed = statusChangedEvent.safeParse(data);
      if (!parsed.success) {
        // Redelivering a message we cannot read would block the stream forever.
        log.error({ sequence, requestId, issues: parsed.error.issues.slice(0, 5) }, 'dropping a status change that is not a valid event');
        return;
      }
      const result = await onStatusChanged(deps, parsed.data);
      if (result.applied) {
        log.info({ eventId: parsed.data.id, requestId, financingCaseId: parsed.data.data.financingCaseId, ...result }, 'case canceled: document tokens invalidated, callback requests closed');
      }
    },
  });
}
