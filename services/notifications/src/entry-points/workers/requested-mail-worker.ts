import type { Logger } from '@rental/logger';
import type { QueueWorker } from '@rental/service-host';
import type { Mailer, PartnerDirectory, RequestedMailStore } from '../../domain/ports';
import { sendRequestedMail } from '../../domain/requested-mail';
import type { RequestedMailJob } from '../../domain/model';
import { MAIL_LEASE_MS, logMailOutcome, mailQueueWorker } from './mail-worker';

/**
 * The mails other services ask for, beside the event mails with their own few slots. Recipient
 * addresses are never logged: a customer's address is personal data.
 */
export function requestedMailWorker(
  deps: { store: RequestedMailStore; directory: PartnerDirectory; mailer?: Mailer },
  options: { log: Logger },
): QueueWorker<RequestedMailJob> {
  const log = options.log.child({ worker: 'requested-mail' });
  return mailQueueWorker<RequestedMailJob>('requested-mail', deps.store, log, async (job) => {
    const next = await sendRequestedMail(job, deps);
    const recipient = 'partnerId' in job.recipient ? `partner ${job.recipient.partnerId}` : 'an address';
    logMailOutcome(log, { mailId: job.id, kind: job.kind, recipient, attempt: job.attempt }, next, { logText: false });
  });
}

/**
 * The store as the mail.requested consumer adds to it: a new mail is handed to the worker as it is
 * stored, leased to it, while a slot is free, so it is sent without a claim; otherwise the
 * worker claims it (woken at once).
 */
export function handingOverTo(worker: QueueWorker<RequestedMailJob>, store: RequestedMailStore): Pick<RequestedMailStore, 'add'> {
  return { add: (request) => worker.handOver((toThisWorker) => store.add(request, toThisWorker ? MAIL_LEASE_MS : undefined)) };
}
