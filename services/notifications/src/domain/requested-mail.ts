import { mailRequestedEvent } from '@rental/proto';
import { isDomainError } from '@rental/problem';
import { MAIL_RETRY_SCHEDULE, MailMessage, Mailer, PartnerDirectory } from './mail';
import { retryDelayMs } from './retry-schedule';

/** A mail another service asked for (mail.requested), as stored. */
export interface RequestedMailJob {
  id: string;
  kind: string;
  recipient: { partnerId: string } | { email: string };
  subject: string;
  text: string;
  /** Number of the attempt about to be made, from 1. */
  attempt: number;
}

export type RequestedMailNext =
  | { status: 'sent' | 'logged'; message: MailMessage }
  | { status: 'skipped'; reason: string }
  | { status: 'pending'; nextAttemptAt: Date; error: string }
  | { status: 'failed'; error: string };

export interface RequestedMailStore {
  /** Stores the request once; false when its id was stored before. */
  add(request: { id: string; kind: string; recipient: RequestedMailJob['recipient']; subject: string; text: string; financingCaseId: string | null }): Promise<boolean>;
  claimDue(limit: number, leaseMs: number): Promise<RequestedMailJob[]>;
  complete(job: RequestedMailJob, next: RequestedMailNext): Promise<void>;
  nextDueAt(): Promise<Date | undefined>;
}

export type ReceivedMailRequest =
  | { kind: 'stored' | 'duplicate'; id: string }
  | { kind: 'invalid'; problems: string[] }
  | { kind: 'other_environment'; id: string; environment: string };

/** A mail.requested message: validated, kept to this environment, stored once by its id. */
export async function receiveMailRequest(data: unknown, deps: { store: RequestedMailStore; environment: string }): Promise<ReceivedMailRequest> {
  const parsed = mailRequestedEvent.safeParse(data);
  if (!parsed.success) return { kind: 'invalid', problems: parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.')}: ${issue.message}`) };
  const request = parsed.data;
  if (request.environment !== deps.environment) return { kind: 'other_environment', id: request.id, environment: request.environment };
  const stored = await deps.store.add(request);
  return { kind: stored ? 'stored' : 'duplicate', id: request.id };
}

/** Resolves the address (a partner's contact, or the one given) and sends; a failure is retried, then given up. */
export async function sendRequestedMail(job: RequestedMailJob, deps: { store: RequestedMailStore; directory: PartnerDirectory; mailer?: Mailer; now?: () => Date }): Promise<RequestedMailNext> {
  let next: RequestedMailNext;
  try {
    let to: string | undefined;
    if ('email' in job.recipient) to = job.recipient.email;
    else to = (await deps.directory.contactsOf(job.recipient.partnerId))?.partner.email;
    const message = to ? { to, subject: job.subject, text: job.text } : undefined;
    if (!message) next = { status: 'skipped', reason: 'no contact address' };
    else if (!deps.mailer) next = { status: 'logged', message };
    else {
      await deps.mailer.send(message);
      next = { status: 'sent', message };
    }
  } catch (error) {
    const delay = retryDelayMs(job.attempt, MAIL_RETRY_SCHEDULE);
    const now = deps.now?.() ?? new Date();
    const described = isDomainError(error) ? `${error.code}: ${error.detail}` : error instanceof Error ? error.message : String(error);
    next = delay === undefined ? { status: 'failed', error: described } : { status: 'pending', nextAttemptAt: new Date(now.getTime() + delay), error: described };
  }
  await deps.store.complete(job, next);
  return next;
}
