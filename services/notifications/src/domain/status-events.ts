import { statusChangedEvent, webhookBody } from '@rental/proto';
import { mailRecipientsFor } from './mail';
import type { EventInbox } from './ports';

export type ReceiveOutcome =
  | { kind: 'invalid'; problems: string }
  | { kind: 'other_environment'; eventId: string; environment: string }
  | { kind: 'duplicate'; eventId: string }
  | { kind: 'stored'; eventId: string; deliveries: number; mails: number };

/**
 * A status change from the bus. A message that is not a valid event cannot become one by being
 * redelivered, so it is reported and not retried; an event of another environment is ignored.
 */
export async function receiveStatusChange(message: unknown, deps: { inbox: EventInbox; environment: string }): Promise<ReceiveOutcome> {
  const parsed = statusChangedEvent.safeParse(message);
  if (!parsed.success) {
    return { kind: 'invalid', problems: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ') };
  }
  const event = parsed.data;
  if (event.environment !== deps.environment) return { kind: 'other_environment', eventId: event.id, environment: event.environment };
  const mailTo = mailRecipientsFor(event);
  const result = await deps.inbox.record(event, JSON.stringify(webhookBody(event)), mailTo);
  if (!result.stored) return { kind: 'duplicate', eventId: event.id };
  return { kind: 'stored', eventId: event.id, deliveries: result.deliveries, mails: mailTo.length };
}
