import type { Bus } from '@rental/bus';
import type { Logger } from '@rental/logger';
import { MAIL_REQUESTED_SUBJECT } from '@rental/proto';
import { receiveMailRequest } from '../../domain/requested-mail';
import type { RequestedMailStore } from '../../domain/ports';

/**
 * The durable consumer of mail requests (its own durable name beside the status events'). The
 * message is acked once the request is stored; a failure is redelivered, and a redelivery is
 * stored once (by its id).
 */
export function consumeMailRequests(options: { bus: Bus; store: Pick<RequestedMailStore, 'add'>; environment: string; log: Logger }): void {
  const log = options.log.child({ consumer: 'mail-requested' });
  options.bus.consume<unknown>({
    subject: MAIL_REQUESTED_SUBJECT,
    durable: 'notifications-mail-requested',
    handler: async (message) => {
      const outcome = await receiveMailRequest(message.data, { store: options.store, environment: options.environment });
      if (outcome.kind === 'invalid')
        log.error({ seq: message.sequence, requestId: message.requestId, problems: outcome.problems }, 'ignoring a mail request that is not valid');
      else if (outcome.kind === 'other_environment')
        log.warn({ seq: message.sequence, mailId: outcome.id, environment: outcome.environment }, 'ignoring a mail request of another environment');
    },
  });
}
