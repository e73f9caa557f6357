import type { StatusChangedEvent } from '@rental/proto';
import { isDomainError } from '@rental/problem';
import { RetrySchedule, nextRetryDelayMs } from '@rental/retry-schedule';
import type { MailStore, Mailer, PartnerDirectory } from './ports';
import type { RecipientRole, PartnerContacts, MailMessage, MailJob, MailNext } from './model';

/** Lender decisions the partner hears about by mail, with how the mail words them (subjects stay short enough for one header line). */
const PARTNER_DECISIONS: Record<string, { subject: string; sentence: string }> = {
  finance_accept: { subject: 'accepted', sentence: 'the lender has accepted the financing' },
  finance_reject: { subject: 'rejected', sentence: 'the lender has rejected the financing' },
  finance_resume: { subject: 'accepted after all', sentence: 'the lender has accepted the financing after an earlier rejection' },
};

/** Who gets mail for a status change: the partner on lender decisions, lender and hub on a quote's cancel. */
export function mailRecipientsFor(event: StatusChangedEvent): RecipientRole[] {
  if (event.data.resourceType !== 'quote') return [];
  if (Object.hasOwn(PARTNER_DECISIONS, event.data.transition)) return ['partner'];
  if (event.data.transition === 'cancel') return ['financing_partner', 'distribution_hub'];
  return [];
}

const FOOTER = '\n\nThis message was sent automatically by the Partner Rental API.';

function caseLine(event: StatusChangedEvent): string {
  return event.data.quoteId ? `financing case ${event.data.financingCaseId} (quote ${event.data.quoteId})` : `financing case ${event.data.financingCaseId}`;
}

/** The mail for one recipient of an event, or undefined when that recipient has no address. */
export function composeMail(role: RecipientRole, event: StatusChangedEvent, contacts: PartnerContacts): MailMessage | undefined {
  const { data } = event;
  if (role === 'partner') {
    const decision = PARTNER_DECISIONS[data.transition];
    if (!decision || !contacts.partner.email) return undefined;
    return {
      to: contacts.partner.email,
      subject: `Financing case ${data.financingCaseId}: ${decision.subject}`,
      text: `Hello ${contacts.partner.name},\n\n${decision.sentence} of ${caseLine(event)}.\nStatus: ${data.toStatus} (before: ${data.fromStatus}), changed at ${event.occurredAt}.${FOOTER}`,
    };
  }
  const recipient = role === 'financing_partner' ? contacts.financingPartner : contacts.distributionHub;
  if (!recipient?.email) return undefined;
  return {
    to: recipient.email,
    subject: `Financing case ${data.financingCaseId} canceled`,
    text: `Hello ${recipient.name},\n\n${caseLine(event)} of partner ${contacts.partner.name} has been canceled.\nStatus before the cancellation: ${data.fromStatus}; canceled at ${event.occurredAt}.${FOOTER}`,
  };
}

/** Mail waits longer than webhooks between tries: an SMTP server or pricing may be down for a while. */
export const MAIL_RETRY_SCHEDULE: RetrySchedule = { maxAttempts: 1 + 10, firstDelayMs: 5000, maxDelayMs: 10 * 60 * 1000 };

export interface MailDependencies {
  store: MailStore;
  directory: PartnerDirectory;
  /** Undefined when no SMTP server is configured: the mail is only logged. */
  mailer?: Mailer;
  now?: () => Date;
}

function describe(error: unknown): string {
  if (isDomainError(error)) return `${error.code}: ${error.detail}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * One attempt at a mail: `compose` resolves the address and the text (or says why there is no
 * mail); without a mailer the mail is only logged; a failure is retried on the mail schedule,
 * then given up. Event mails and requested mails share it.
 */
export async function attemptMail(
  compose: () => Promise<MailMessage | { skipped: string }>,
  attempt: number,
  deps: { mailer?: Mailer; now?: () => Date },
): Promise<MailNext> {
  try {
    const composed = await compose();
    if ('skipped' in composed) return { status: 'skipped', reason: composed.skipped };
    if (!deps.mailer) return { status: 'logged', message: composed };
    await deps.mailer.send(composed);
    return { status: 'sent', message: composed };
  } catch (error) {
    const delay = nextRetryDelayMs(MAIL_RETRY_SCHEDULE, attempt);
    const now = deps.now?.() ?? new Date();
    return delay === undefined
      ? { status: 'failed', error: describe(error) }
      : { status: 'pending', nextAttemptAt: new Date(now.getTime() + delay), error: describe(error) };
  }
}

/** Resolves the recipient's address and sends one mail; a failure is retried later, then given up. */
export async function sendMail(job: MailJob, deps: MailDependencies): Promise<MailNext> {
  const next = await attemptMail(
    async () => {
      const contacts = await deps.directory.contactsOf(job.partnerId);
      if (!contacts) return { skipped: 'unknown partner' };
      return composeMail(job.role, job.event, contacts) ?? { skipped: 'no contact address' };
    },
    job.attempt,
    deps,
  );
  await deps.store.complete(job, next);
  return next;
}
