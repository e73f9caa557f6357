import type { Logger } from '@rental/logger';
import type { Mailer, PartnerDirectory } from '../../domain/mail';
import { RequestedMailJob, RequestedMailStore, sendRequestedMail } from '../../domain/requested-mail';
import { mailsFinished } from './metrics';
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
      mailsFinished.inc({ status: next.status });
      const entry = { mailId: job.id, kind: job.kind, recipient: 'partnerId' in job.recipient ? `partner ${job.recipient.partnerId}` : 'an address', attempt: job.attempt, status: next.status };
      if ('message' in next) log.info({ ...entry, subject: next.message.subject }, next.status === 'sent' ? 'mail sent' : 'mail logged (no SMTP_URL configured)');
      else if (next.status === 'skipped') log.info({ ...entry, reason: next.reason }, 'mail skipped');
      else if (next.status === 'pending') log.warn({ ...entry, error: next.error, nextAttemptAt: next.nextAttemptAt.toISOString() }, 'mail failed; retry scheduled');
      else log.error({ ...entry, error: next.error }, 'mail failed; giving up');
    },
  });
}
