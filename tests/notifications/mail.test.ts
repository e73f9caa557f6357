import { randomBytes } from 'node:crypto';
import type { ReceivedMail } from '@rental/testkit';
import { createTestPartner, waitFor } from '@rental/testkit';
import { rows } from '../support/database';
import { sharedStack } from '../support/shared-stack';
import { EventPublisher, sleep } from './support';

let publisher: EventPublisher;

beforeAll(async () => {
  publisher = await EventPublisher.connect(sharedStack());
});

afterAll(() => publisher.close());

async function mailbox(): Promise<ReceivedMail[]> {
  const response = await fetch(`${sharedStack().controlUrl}/mail`);
  return (await response.json()) as ReceivedMail[];
}

/** The text part as a reader sees it (quoted-printable soft breaks and escapes undone). */
const readable = (text: string) =>
  text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\r\n/g, '\n');

async function mailsAbout(caseId: string, count: number): Promise<ReceivedMail[]> {
  return waitFor(
    async () => {
      const found = (await mailbox()).filter((mail) => mail.subject.includes(caseId));
      return found.length >= count ? found : undefined;
    },
    { timeoutMs: 15_000, intervalMs: 100, what: `${count} mail(s) about ${caseId}` },
  );
}

async function partnerWithAddress(like = 'acme') {
  const email = `ops-${randomBytes(4).toString('hex')}@partner.example`;
  const partner = await createTestPartner(sharedStack(), { like, overrides: { contactEmail: email } });
  return { ...partner, email };
}

describe('partner mail on lender decisions', () => {
  it.each([
    ['finance_accept', 'finance_accepted', 'accepted', 'the lender has accepted the financing'],
    ['finance_reject', 'finance_rejected', 'rejected', 'the lender has rejected the financing'],
    ['finance_resume', 'finance_accepted', 'accepted after all', 'the lender has accepted the financing after an earlier rejection'],
  ])(
    "when a quote goes through %s, then the partner's contact address gets a mail from the platform sender",
    async (transition, toStatus, subject, sentence) => {
      const partner = await partnerWithAddress();

      const event = await publisher.publish(publisher.event(partner.id, { transition, toStatus, status: toStatus }));

      const [mail] = await mailsAbout(event.data.financingCaseId, 1);
      expect(mail).toMatchObject({
        from: 'no-reply@partner-rental.example',
        to: [partner.email],
        subject: `Financing case ${event.data.financingCaseId}: ${subject}`,
      });
      expect(readable(mail!.text)).toContain(`${sentence} of financing case ${event.data.financingCaseId} (quote ${event.data.quoteId}).`);
    },
  );

  it('when the partner has no contact address, then no mail is sent', async () => {
    const partner = await createTestPartner(sharedStack(), { like: 'gamma' });
    const marker = await partnerWithAddress();

    const event = await publisher.publish(
      publisher.event(partner.id, { transition: 'finance_accept', toStatus: 'finance_accepted', status: 'finance_accepted' }),
    );
    const after = await publisher.publish(
      publisher.event(marker.id, { transition: 'finance_accept', toStatus: 'finance_accepted', status: 'finance_accepted' }),
    );

    await mailsAbout(after.data.financingCaseId, 1);
    await sleep(300);
    expect((await mailbox()).filter((mail) => mail.subject.includes(event.data.financingCaseId))).toEqual([]);
  });

  it('when other transitions happen or the same event arrives twice, then no extra mail is sent', async () => {
    const partner = await partnerWithAddress();
    const decision = publisher.event(partner.id, { transition: 'finance_reject', toStatus: 'finance_rejected', status: 'finance_rejected' });

    const other = await publisher.publish(
      publisher.event(partner.id, { transition: 'finalize', fromStatus: 'in_progress', toStatus: 'in_review', status: 'in_review' }),
    );
    await publisher.publish(decision, `${decision.id}-a`);
    await publisher.publish(decision, `${decision.id}-b`);
    const marker = await publisher.publish(
      publisher.event(partner.id, { transition: 'finance_accept', toStatus: 'finance_accepted', status: 'finance_accepted' }),
    );

    await mailsAbout(marker.data.financingCaseId, 1);
    await sleep(300);
    const mine = (await mailbox()).filter((mail) => mail.to.includes(partner.email));
    expect(mine.map((mail) => mail.subject).sort()).toEqual(
      [`Financing case ${decision.data.financingCaseId}: rejected`, `Financing case ${marker.data.financingCaseId}: accepted`].sort(),
    );
    expect(mine.some((mail) => mail.subject.includes(other.data.financingCaseId))).toBe(false);
  });
});

describe('financer and hub mail on cancel', () => {
  it('when a quote is canceled, then the lender and the distribution hub each get a mail', async () => {
    const partner = await partnerWithAddress();

    const event = await publisher.publish(
      publisher.event(partner.id, { transition: 'cancel', fromStatus: 'finance_review', toStatus: 'canceled', status: 'canceled' }),
    );

    const mails = await mailsAbout(event.data.financingCaseId, 2);
    expect(mails.map((mail) => [mail.to, mail.subject]).sort()).toEqual([
      [['credit@lender-a.example'], `Financing case ${event.data.financingCaseId} canceled`],
      [['ops@hub-north.example'], `Financing case ${event.data.financingCaseId} canceled`],
    ]);
    const lenderMail = readable(mails.find((mail) => mail.to.includes('credit@lender-a.example'))!.text);
    expect(lenderMail).toContain(`Hello Lender A Bank,\n\nfinancing case ${event.data.financingCaseId} (quote ${event.data.quoteId}) of partner`);
    expect(lenderMail).toContain('has been canceled.\nStatus before the cancellation: finance_review');
    expect(mails.some((mail) => mail.to.includes(partner.email))).toBe(false);
  });

  it('when the lender and hub have no address, then nobody is mailed; a contract cancel mails nobody', async () => {
    const withoutAddresses = await createTestPartner(sharedStack(), { like: 'gamma' });
    const withAddresses = await partnerWithAddress();

    const quiet = await publisher.publish(publisher.event(withoutAddresses.id, { transition: 'cancel', toStatus: 'canceled', status: 'canceled' }));
    const contract = await publisher.publish(
      publisher.event(withAddresses.id, {
        resourceType: 'contract',
        transition: 'cancel',
        fromStatus: 'wait_for_signing',
        toStatus: 'canceled',
        status: 'canceled',
      }),
    );
    const marker = await publisher.publish(publisher.event(withAddresses.id, { transition: 'cancel', toStatus: 'canceled', status: 'canceled' }));

    await mailsAbout(marker.data.financingCaseId, 2);
    await sleep(300);
    const all = await mailbox();
    expect(all.filter((mail) => mail.subject.includes(quiet.data.financingCaseId) || mail.subject.includes(contract.data.financingCaseId))).toEqual([]);
  });
});

describe('the mail log', () => {
  it('when mails of many events finish at once, then each row records its own outcome, address and subject, and each mail is sent once', async () => {
    const addressed = await partnerWithAddress();
    const unaddressed = await createTestPartner(sharedStack(), { like: 'acme', overrides: { contactEmail: null } });
    const decision = { transition: 'finance_accept', toStatus: 'finance_accepted', status: 'finance_accepted' };

    const events = await Promise.all(
      Array.from({ length: 12 }, (_, index) => publisher.publish(publisher.event(index % 2 === 0 ? addressed.id : unaddressed.id, decision))),
    );

    const eventIds = events.map((event) => event.id);
    const logged = await waitFor(
      async () => {
        const found = await rows<{
          event_id: string;
          status: string;
          attempts: number;
          to_address: string | null;
          subject: string | null;
          lease_expires_at: Date | null;
        }>(
          sharedStack().databaseUrl,
          'SELECT event_id, status, attempts, to_address, subject, lease_expires_at FROM mail_log WHERE event_id = ANY($1)',
          [eventIds],
          'notifications',
        );
        return found.length === 12 && found.every((row) => row.status !== 'pending') ? found : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 100, what: 'the 12 mails finished' },
    );
    const expected = events.map((event, index) => ({
      event_id: event.id,
      status: index % 2 === 0 ? 'sent' : 'skipped',
      attempts: 1,
      to_address: index % 2 === 0 ? addressed.email : null,
      subject: index % 2 === 0 ? `Financing case ${event.data.financingCaseId}: accepted` : null,
      lease_expires_at: null,
    }));
    const byEvent = (a: { event_id: string }, b: { event_id: string }) => a.event_id.localeCompare(b.event_id);
    expect([...logged].sort(byEvent)).toEqual(expected.sort(byEvent));
    const caseIds = events.map((event) => event.data.financingCaseId);
    const sent = (await mailbox()).filter((mail) => caseIds.some((caseId) => mail.subject.includes(caseId)));
    expect(sent.map((mail) => mail.subject).sort()).toEqual(expected.flatMap((row) => (row.subject ? [row.subject] : [])).sort());
  });
});
