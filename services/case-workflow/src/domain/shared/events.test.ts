import { nextOccurredAt } from './events';

describe('status-changed events', () => {
  it('when the clock moved on, then occurredAt is now', () => {
    expect(nextOccurredAt(new Date('2026-03-01T10:00:00.005Z'), new Date('2026-03-01T10:00:00.004Z')).toISOString()).toBe('2026-03-01T10:00:00.005Z');
    expect(nextOccurredAt(new Date('2026-03-01T10:00:00.005Z'), null).toISOString()).toBe('2026-03-01T10:00:00.005Z');
  });

  it('when two changes fall into one millisecond or the clock stepped back, then the next is 1 ms after the previous', () => {
    expect(nextOccurredAt(new Date('2026-03-01T10:00:00.005Z'), new Date('2026-03-01T10:00:00.005Z')).toISOString()).toBe('2026-03-01T10:00:00.006Z');
    expect(nextOccurredAt(new Date('2026-03-01T09:00:00.000Z'), new Date('2026-03-01T10:00:00.005Z')).toISOString()).toBe('2026-03-01T10:00:00.006Z');
  });
});
