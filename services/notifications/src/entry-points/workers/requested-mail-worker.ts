import type { Logger } from '@rental/logger';
import type { Mailer, PartnerDirectory } from '../../domain/mail';
import { RequestedMailJob, RequestedMailStore, sendRequestedMail } from '../../domain/requested-mail';
import { logMailOutcome } from './mail-worker';
import { PollingWorker } from './polling-worker';

const MAIL_LEASE_MS = 120_000;

/**
 * The mails other services ask for, beside the event mails with their own few slots. Recipient
 * addresses are never logged: a customer's address is personal data.
 */
export function requestedMailWorker(deps: { store: RequestedMailStore; directory: PartnerDirectory; mailer?: Mailer }, options: { log: Logger }): PollingWorker<RequestedMailJob> {
  const log = options.log.child({ worker: 'requested-mail' });
  return new PollingWorker<RequestedMailJob>({
    name: 'requested-mail',
    concurrency: 4,
    pollMs: 1000,
    log,
    keyOf: (job) => job.id,
    claim: (limit) => deps.store.claimDue(limit, MAIL_LEASE_MS),
    nextDueAt: () => deps.store.nextDueAt(),
    process: async (job) => {
      const next = await sendRequestedMail(job, deps);
      const recipient = 'partnerId' in job.recipient ? `partner ${job.recipient.partnerId}` : 'an address';
      logMailOutcome(log, { mailId: job.id, kind: job.kind, recipient, attempt: job.attempt }, next, { logText: false });
    },
  });
}
