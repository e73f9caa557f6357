import { statusChangedEvent, statusChangedEventOf } from './events';

describe('status-changed events', () => {
  it('when an event is built, then it is a valid envelope with the case status and routing members', () => {
    const event = statusChangedEventOf({
      id: '01JABCDEFGHJKMNPQRSTVWXYZ0',
      occurredAt: new Date('2026-03-01T10:00:00.000Z'),
      financingCaseId: 'CASE',
      quoteId: 'QUOTE',
      partnerId: 'acme',
      environment: 'sandbox',
      resourceType: 'contract',
      fromStatus: 'wait_for_signing',
      toStatus: 'canceled',
      caseStatus: 'canceled',
      transition: 'cancel',
    });
    expect(event).toEqual({
      id: '01JABCDEFGHJKMNPQRSTVWXYZ0',
      event: 'financing_case.status_changed',
      occurredAt: '2026-03-01T10:00:00.000Z',
      version: 1,
      data: {
        financingCaseId: 'CASE',
        quoteId: 'QUOTE',
        resourceType: 'contract',
        fromStatus: 'wait_for_signing',
        toStatus: 'canceled',
        status: 'canceled',
        transition: 'cancel',
      },
      partnerId: 'acme',
      environment: 'sandbox',
    });
    expect(statusChangedEvent.parse(event)).toEqual(event);
  });
});
