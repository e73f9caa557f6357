import { statusChangedEvent as schema } from '@rental/proto';
import { nextOccurredAt, statusChangedEvent } from './events';

describe('status-changed events', () => {
  it('when the clock moved on, then occurredAt is now', () => {
    expect(nextOccurredAt(new Date('2026-03-01T10:00:00.005Z'), new Date('2026-03-01T10:00:00.004Z')).toISOString()).toBe('2026-03-01T10:00:00.005Z');
    expect(nextOccurredAt(new Date('2026-03-01T10:00:00.005Z'), null).toISOString()).toBe('2026-03-01T10:00:00.005Z');
  });

  it('when two changes fall into one millisecond or the clock stepped back, then the next is 1 ms after the previous', () => {
    expect(nextOccurredAt(new Date('2026-03-01T10:00:00.005Z'), new Date('2026-03-01T10:00:00.005Z')).toISOString()).toBe('2026-03-01T10:00:00.006Z');
    expect(nextOccurredAt(new Date('2026-03-01T09:00:00.000Z'), new Date('2026-03-01T10:00:00.005Z')).toISOString()).toBe('2026-03-01T10:00:00.006Z');
  });

  it('when an event is built, then it is a valid envelope with the case status and routing members', () => {
    const event = statusChangedEvent({
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
      data: { financingCaseId: 'CASE', quoteId: 'QUOTE', resourceType: 'contract', fromStatus: 'wait_for_signing', toStatus: 'canceled', status: 'canceled', transition: 'cancel' },
      partnerId: 'acme',
      environment: 'sandbox',
    });
    expect(schema.parse(event)).toEqual(event);
  });
});
