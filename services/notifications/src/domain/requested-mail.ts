import { mailRequestedEvent } from '@rental/proto';
import { attemptMail } from './mail';
import type { MailNext, RequestedMailJob } from './model';
import type { Mailer, PartnerDirectory, RequestedMailStore } from './ports';

export type ReceivedMailRequest =
  { kind: 'stored' | 'duplicate'; id: string } | { kind: 'invalid'; problems: string[] } | { kind: 'other_environment'; id: string; environment: string };

/** A mail.requested message: validated, kept to this environment, stored once by its id. */
export async function receiveMailRequest(data: unknown, deps: { store: Pick<RequestedMailStore, 'add'>; environment: string }): Promise<ReceivedMailRequest> {
  const parsed = mailRequestedEvent.safeParse(data);
  if (!parsed.success) return { kind: 'invalid', problems: parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.')}: ${issue.message}`) };
  const request = parsed.data;
  if (request.environment !== deps.environment) return { kind: 'other_environment', id: request.id, environment: request.environment };
  const stored = await deps.store.add(request);
  return { kind: stored ? 'stored' : 'duplicate', id: request.id };
}

/** Resolves the address (a partner's contact, or the one given) and sends; a failure is retried, then given up. */
export async function sendRequestedMail(
  job: RequestedMailJob,
  deps: { store: RequestedMailStore; directory: PartnerDirectory; mailer?: Mailer; now?: () => Date },
): Promise<MailNext> {
  const next = await attemptMail(
    async () => {
      const to = 'email' in job.recipient ? job.recipient.email : (await deps.directory.contactsOf(job.recipient.partnerId))?.partner.email;
      return to ? { to, subject: job.subject, text: job.text } : { skipped: 'no contact address' };
    },
    job.attempt,
    deps,
  );
  await deps.store.complete(job, next);
  return next;
}
