import type { StatusChangedEvent } from '@rental/proto';
import { composeMail, mailRecipientsFor, sendMail } from './mail';
import type { MailJob, MailNext, PartnerContacts } from './model';
import type { MailStore } from './ports';

const event = (data: Partial<StatusChangedEvent['data']>): StatusChangedEvent => ({
  id: 'evt-1',
  event: 'financing_case.status_changed',
  occurredAt: '2026-01-01T10:00:00.000Z',
  version: 1,
  partnerId: 'acme',
  environment: 'sandbox',
  data: {
    financingCaseId: 'CASE1',
    quoteId: 'QUOTE1',
    resourceType: 'quote',
    fromStatus: 'finance_review',
    toStatus: 'finance_accepted',
    status: 'finance_accepted',
    transition: 'finance_accept',
    ...data,
  },
});

const contacts: PartnerContacts = {
  partner: { name: 'Acme', email: 'ops@acme.example' },
  financingPartner: { name: 'Lender A', email: 'credit@lender-a.example' },
  distributionHub: { name: 'Hub North', email: 'ops@hub-north.example' },
};

describe('mailRecipientsFor', () => {
  it('when a quote gets a lender decision, then the partner is mailed', () => {
    expect(['finance_accept', 'finance_reject', 'finance_resume'].map((transition) => mailRecipientsFor(event({ transition })))).toEqual([
      ['partner'],
      ['partner'],
      ['partner'],
    ]);
  });

  it('when a quote is canceled, then lender and hub are mailed', () => {
    expect(mailRecipientsFor(event({ transition: 'cancel', toStatus: 'canceled' }))).toEqual(['financing_partner', 'distribution_hub']);
  });

  it('when a contract is canceled or another transition happens, then nobody is mailed', () => {
    expect(mailRecipientsFor(event({ resourceType: 'contract', transition: 'cancel' }))).toEqual([]);
    expect(mailRecipientsFor(event({ transition: 'finalize' }))).toEqual([]);
    expect(mailRecipientsFor(event({ transition: 'toString' }))).toEqual([]);
  });
});

describe('composeMail', () => {
  it('when the lender accepts, then the partner gets a mail naming the case, quote and status', () => {
    expect(composeMail('partner', event({}), contacts)).toEqual({
      to: 'ops@acme.example',
      subject: 'Financing case CASE1: accepted',
      text: 'Hello Acme,\n\nthe lender has accepted the financing of financing case CASE1 (quote QUOTE1).\nStatus: finance_accepted (before: finance_review), changed at 2026-01-01T10:00:00.000Z.\n\nThis message was sent automatically by the Partner Rental API.',
    });
  });

  it('when a quote is canceled, then lender and hub each get a mail naming the partner', () => {
    const canceled = event({ transition: 'cancel', toStatus: 'canceled', status: 'canceled' });
    expect(composeMail('financing_partner', canceled, contacts)).toMatchObject({
      to: 'credit@lender-a.example',
      subject: 'Financing case CASE1 canceled',
      text: expect.stringContaining('Hello Lender A,\n\nfinancing case CASE1 (quote QUOTE1) of partner Acme has been canceled.'),
    });
    expect(composeMail('distribution_hub', canceled, contacts)).toMatchObject({ to: 'ops@hub-north.example', subject: 'Financing case CASE1 canceled' });
  });

  it('when a recipient has no address or does not exist, then there is no mail', () => {
    const canceled = event({ transition: 'cancel' });
    expect(composeMail('financing_partner', canceled, { partner: contacts.partner, financingPartner: { name: 'Lender B' } })).toBeUndefined();
    expect(composeMail('distribution_hub', canceled, { partner: contacts.partner })).toBeUndefined();
    expect(composeMail('partner', event({}), { partner: { name: 'Gamma' } })).toBeUndefined();
  });
});

describe('sendMail', () => {
  const job: MailJob = { id: '1', partnerId: 'acme', role: 'partner', attempt: 1, event: event({}) };
  const NOW = new Date('2026-01-01T10:00:00.000Z');

  function store() {
    const completed: MailNext[] = [];
    const mailStore: MailStore = { claimDue: async () => [], complete: async (_job, next) => void completed.push(next), nextDueAt: async () => undefined };
    return { completed, mailStore };
  }

  it('when SMTP is configured, then the mail is sent; without it, it is only logged', async () => {
    const sent: unknown[] = [];
    const withSmtp = store();
    await sendMail(job, {
      store: withSmtp.mailStore,
      directory: { contactsOf: async () => contacts },
      mailer: { send: async (message) => void sent.push(message) },
    });
    const withoutSmtp = store();
    await sendMail(job, { store: withoutSmtp.mailStore, directory: { contactsOf: async () => contacts } });
    expect(sent).toHaveLength(1);
    expect(withSmtp.completed.map((next) => next.status)).toEqual(['sent']);
    expect(withoutSmtp.completed.map((next) => next.status)).toEqual(['logged']);
  });

  it('when sending fails, then it is retried later, and given up after the last retry', async () => {
    const failing = { send: async () => Promise.reject(new Error('421 try again later')) };
    const first = store();
    await sendMail(job, { store: first.mailStore, directory: { contactsOf: async () => contacts }, mailer: failing, now: () => NOW });
    const last = store();
    await sendMail({ ...job, attempt: 11 }, { store: last.mailStore, directory: { contactsOf: async () => contacts }, mailer: failing, now: () => NOW });
    expect(first.completed).toEqual([{ status: 'pending', nextAttemptAt: new Date(NOW.getTime() + 5000), error: '421 try again later' }]);
    expect(last.completed).toEqual([{ status: 'failed', error: '421 try again later' }]);
  });

  it('when the recipient has no address or the partner is unknown, then the mail is skipped', async () => {
    const noAddress = store();
    await sendMail(job, { store: noAddress.mailStore, directory: { contactsOf: async () => ({ partner: { name: 'Gamma' } }) } });
    const unknown = store();
    await sendMail(job, { store: unknown.mailStore, directory: { contactsOf: async () => undefined } });
    expect([...noAddress.completed, ...unknown.completed]).toEqual([
      { status: 'skipped', reason: 'no contact address' },
      { status: 'skipped', reason: 'unknown partner' },
    ]);
  });
});
