import type { Bus, ReceivedMessage } from '@rental/bus';
import type { Logger } from '@rental/logger';
import { EVERY_STATUS_CHANGE_SUBJECT, STATUS_CHANGED_SUBJECT } from '@rental/proto';
import { receiveStatusChange } from '../../domain/status-events';
import type { EventInbox } from '../../domain/ports';

export interface StatusChangedConsumerOptions {
  bus: Bus;
  inbox: EventInbox;
  environment: string;
  log: Logger;
  /** Called after an event was committed with what it queued, so the workers with work look at once. */
  onStored(queued: { deliveries: number; mails: number }): void;
}

/**
 * Pullers sharing the one durable consumer: the Bus handles a puller's messages one after the
 * other, so several pullers store several events at once. Order does not matter (events may
 * arrive out of order; the inbox keeps each id once, however many pullers see it).
 */
const PULLERS = 8;
const BATCH = 10;

/**
 * The durable consumer of status changes. The Bus acks a message once this handler resolved,
 * that is after the event and its deliveries were committed; a failure (database down) makes it
 * throw, and the message is redelivered.
 */
export function consumeStatusChanges(options: StatusChangedConsumerOptions): void {
  const log = options.log.child({ consumer: 'status-changed' });
  const handler = async (message: ReceivedMessage<unknown>): Promise<void> => {
    const outcome = await receiveStatusChange(message.data, { inbox: options.inbox, environment: options.environment });
    switch (outcome.kind) {
      case 'invalid':
        log.error(
          { seq: message.sequence, requestId: message.requestId, problems: outcome.problems },
          'ignoring a status-changed message that is not a valid event',
        );
        return;
      case 'other_environment':
        log.warn(
          { seq: message.sequence, requestId: message.requestId, eventId: outcome.eventId, environment: outcome.environment },
          'ignoring an event of another environment',
        );
        return;
      case 'duplicate':
        log.info({ seq: message.sequence, requestId: message.requestId, eventId: outcome.eventId }, 'event already stored; nothing to do');
        return;
      case 'stored':
        log.debug(
          { seq: message.sequence, requestId: message.requestId, eventId: outcome.eventId, deliveries: outcome.deliveries, mails: outcome.mails },
          'event stored',
        );
        options.onStored({ deliveries: outcome.deliveries, mails: outcome.mails });
    }
  };
  // Every status change goes to the partner's endpoints; the durable kept for upgrades (named after
  // the service, of the single subject) is read by one puller while it exists (publishers not yet upgraded).
  for (let puller = 0; puller < PULLERS; puller += 1) {
    options.bus.consume<unknown>({
      subject: EVERY_STATUS_CHANGE_SUBJECT,
      durable: 'notifications-status-changes',
      upgradeDurable: puller === 0 ? { durable: 'notifications', subject: STATUS_CHANGED_SUBJECT } : undefined,
      batch: BATCH,
      handler,
    });
  }
}
