import { type Logger, type TraceOrigin, inTraceOf } from '@rental/logger';
import { QueueWorker, queueWorker } from '@rental/service-host';
import { MailDependencies, sendMail } from '../../domain/mail';
import type { MailJob, MailNext } from '../../domain/model';
import { mailsFinished } from './metrics';

export const MAIL_LEASE_MS = 120_000;

/**
 * A worker over one mail queue: mail runs beside webhook delivery with its own few slots, so a
 * slow SMTP server delays no webhook. Event mails and requested mails each have one; each
 * attempt continues the trace of the work that queued the mail.
 */
export function mailQueueWorker<Job extends TraceOrigin>(
  name: string,
  store: { claimDue(limit: number, leaseMs: number): Promise<Job[]>; nextDueAt(): Promise<Date | undefined> },
  log: Logger,
  process: (job: Job) => Promise<void>,
): QueueWorker<Job> {
  return queueWorker<Job>({
    name,
    concurrency: 4,
    pollMs: 1000,
    log,
    claim: (limit) => store.claimDue(limit, MAIL_LEASE_MS),
    nextDueAt: () => store.nextDueAt(),
    process: (job) => inTraceOf(job, () => process(job)),
  });
}

export function mailWorker(deps: MailDependencies, options: { log: Logger }): QueueWorker<MailJob> {
  const log = options.log.child({ worker: 'mail' });
  return mailQueueWorker<MailJob>('mail', deps.store, log, async (job) => {
    const next = await sendMail(job, deps);
    // The recipient is named by its role: addresses are personal data and stay out of the log.
    logMailOutcome(log, { eventId: job.event.id, partnerId: job.partnerId, recipientRole: job.role, attempt: job.attempt }, next, { logText: true });
  });
}

/**
 * One line per mail attempt, never with the address. `logText` writes the text of a mail that
 * was only logged (no SMTP_URL); requested mails keep it out, as theirs may carry a customer link.
 */
export function logMailOutcome(log: Logger, who: Record<string, unknown>, next: MailNext, options: { logText: boolean }): void {
  mailsFinished.inc({ status: next.status });
  const entry = { ...who, status: next.status };
  if ('message' in next) {
    const { subject, text } = next.message;
    if (next.status === 'sent') log.info({ ...entry, subject }, 'mail sent');
    else log.info({ ...entry, subject, ...(options.logText ? { text } : {}) }, 'mail logged (no SMTP_URL configured)');
  } else if (next.status === 'skipped') log.info({ ...entry, reason: next.reason }, 'mail skipped');
  else if (next.status === 'pending')
    log.warn({ ...entry, error: next.error, nextAttemptAt: next.nextAttemptAt.toISOString() }, 'mail failed; retry scheduled');
  else log.error({ ...entry, error: next.error }, 'mail failed; giving up');
}
