import type { StatusChangedEvent } from '@rental/proto';
import type { RecipientRole } from './model';
import { receiveStatusChange } from './status-events';
import type { EventInbox } from './ports';

function memoryInbox(endpoints: number) {
  const stored = new Map<string, { body: string; mailTo: RecipientRole[] }>();
  const inbox: EventInbox = {
    async record(event: StatusChangedEvent, body: string, mailTo: RecipientRole[]) {
      if (stored.has(event.id)) return { stored: false, deliveries: 0 };
      stored.set(event.id, { body, mailTo });
      return { stored: true, deliveries: endpoints };
    },
  };
  return { inbox, stored };
}

const message = {
  id: 'evt-1',
  event: 'financing_case.status_changed',
  occurredAt: '2026-01-01T10:00:00.000Z',
  version: 1,
  data: {
    financingCaseId: 'CASE1',
    quoteId: 'QUOTE1',
    resourceType: 'quote',
    fromStatus: 'in_review',
    toStatus: 'canceled',
    status: 'canceled',
    transition: 'cancel',
  },
  partnerId: 'acme',
  environment: 'sandbox',
};

describe('receiveStatusChange', () => {
  it('when a valid event arrives, then it is stored with the body partners get and the mail it causes', async () => {
    const { inbox, stored } = memoryInbox(2);
    expect(await receiveStatusChange(message, { inbox, environment: 'sandbox' })).toEqual({ kind: 'stored', eventId: 'evt-1', deliveries: 2, mails: 2 });
    expect(stored.get('evt-1')).toEqual({
      body: '{"id":"evt-1","event":"financing_case.status_changed","occurredAt":"2026-01-01T10:00:00.000Z","version":1,"data":{"financingCaseId":"CASE1","quoteId":"QUOTE1","resourceType":"quote","fromStatus":"in_review","toStatus":"canceled","status":"canceled","transition":"cancel"}}',
      mailTo: ['financing_partner', 'distribution_hub'],
    });
  });

  it('when the same event arrives again, then it is a duplicate and creates nothing', async () => {
    const { inbox } = memoryInbox(1);
    await receiveStatusChange(message, { inbox, environment: 'sandbox' });
    expect(await receiveStatusChange(message, { inbox, environment: 'sandbox' })).toEqual({ kind: 'duplicate', eventId: 'evt-1' });
  });

  it('when the message is not a valid event, then it is reported as invalid and nothing is stored', async () => {
    const { inbox, stored } = memoryInbox(1);
    const outcome = await receiveStatusChange({ ...message, version: 2, data: { financingCaseId: 'C' } }, { inbox, environment: 'sandbox' });
    expect(outcome.kind).toBe('invalid');
    expect(stored.size).toBe(0);
  });

  it('when the event belongs to another environment, then it is ignored', async () => {
    const { inbox, stored } = memoryInbox(1);
    expect(await receiveStatusChange(message, { inbox, environment: 'production' })).toEqual({
      kind: 'other_environment',
      eventId: 'evt-1',
      environment: 'sandbox',
    });
    expect(stored.size).toBe(0);
  });
});
