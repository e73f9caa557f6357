import { randomBytes } from 'node:crypto';
import { createTestPartner, logLines, waitFor } from '@rental/testkit';
import { sharedStack } from '../support/shared-stack';
import { EventPublisher } from './support';

// Mail lines name the recipient by role: an address is personal data and stays out of the log.

let publisher: EventPublisher;

beforeAll(async () => {
  publisher = await EventPublisher.connect(sharedStack());
});

afterAll(() => publisher.close());

describe('the mail lines of the notifications log', () => {
  it('when a partner is mailed about a decision, then the log line names the role, event and subject but not the address', async () => {
    const email = `ops-${randomBytes(4).toString('hex')}@partner.example`;
    const partner = await createTestPartner(sharedStack(), { like: 'acme', overrides: { contactEmail: email } });

    const event = await publisher.publish(
      publisher.event(partner.id, { transition: 'finance_accept', toStatus: 'finance_accepted', status: 'finance_accepted' }),
    );

    const line = await waitFor(
      () => logLines(sharedStack().logDirectory, 'notifications').find((entry) => entry.eventId === event.id && entry.msg === 'mail sent'),
      { timeoutMs: 15_000, what: 'the mail line' },
    );
    expect(line).toEqual(
      expect.objectContaining({
        partnerId: partner.id,
        recipientRole: 'partner',
        status: 'sent',
        subject: `Financing case ${event.data.financingCaseId}: accepted`,
      }),
    );
    expect(line).not.toHaveProperty('to');
    const everyLine = logLines(sharedStack().logDirectory, 'notifications')
      .map((entry) => JSON.stringify(entry))
      .join('\n');
    expect(everyLine).not.toContain(email);
  });
});
