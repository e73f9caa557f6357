import type { MailNext, RequestedMailJob } from './model';
import { receiveMailRequest, sendRequestedMail } from './requested-mail';
import type { RequestedMailStore } from './ports';

class MemoryStore implements RequestedMailStore {
  readonly ids = new Set<string>();
  readonly completed: MailNext[] = [];
  async add(request: Parameters<RequestedMailStore['add']>[0]): Promise<RequestedMailJob | undefined> {
    if (this.ids.has(request.id)) return undefined;
    this.ids.add(request.id);
    return {
      id: request.id,
      kind: request.kind,
      recipient: request.recipient,
      subject: request.subject,
      text: request.text,
      attempt: 1,
      requestId: null,
      traceparent: null,
    };
  }
  async claimDue(): Promise<RequestedMailJob[]> {
    return [];
  }
  async complete(_job: RequestedMailJob, next: MailNext): Promise<void> {
    this.completed.push(next);
  }
  async nextDueAt(): Promise<Date | undefined> {
    return undefined;
  }
}

const request = {
  id: '01JMAIL',
  kind: 'customer_link',
  recipient: { email: 'kunde@customer.example' },
  subject: 'Your offer',
  text: 'Open it',
  financingCaseId: '01JCASE',
  environment: 'sandbox',
};
const directory = { contactsOf: async (partnerId: string) => (partnerId === 'acme' ? { partner: { name: 'Acme', email: 'ops@acme.example' } } : undefined) };

describe('mail requests', () => {
  it('when a request arrives twice, then it is stored once', async () => {
    const store = new MemoryStore();
    expect(await receiveMailRequest(request, { store, environment: 'sandbox' })).toEqual({ kind: 'stored', id: '01JMAIL' });
    expect(await receiveMailRequest(request, { store, environment: 'sandbox' })).toEqual({ kind: 'duplicate', id: '01JMAIL' });
  });

  it('when a request is malformed or of another environment, then nothing is stored', async () => {
    const store = new MemoryStore();
    expect((await receiveMailRequest({ ...request, recipient: { email: 'nope' } }, { store, environment: 'sandbox' })).kind).toBe('invalid');
    expect((await receiveMailRequest({ ...request, recipient: { partnerId: 'acme', email: 'a@b.example' } }, { store, environment: 'sandbox' })).kind).toBe(
      'invalid',
    );
    expect(await receiveMailRequest(request, { store, environment: 'production' })).toEqual({
      kind: 'other_environment',
      id: '01JMAIL',
      environment: 'sandbox',
    });
    expect(store.ids.size).toBe(0);
  });

  it('when the recipient is a partner, then its contact address is used; an unknown partner is skipped; a failing server is retried', async () => {
    const store = new MemoryStore();
    const sent: string[] = [];
    const mailer = {
      send: async (message: { to: string }) => {
        sent.push(message.to);
      },
    };
    const job = (recipient: RequestedMailJob['recipient']): RequestedMailJob => ({
      id: 'm',
      kind: 'review_expired',
      recipient,
      subject: 's',
      text: 't',
      attempt: 1,
    });
    expect((await sendRequestedMail(job({ partnerId: 'acme' }), { store, directory, mailer })).status).toBe('sent');
    expect((await sendRequestedMail(job({ partnerId: 'unknown' }), { store, directory, mailer })).status).toBe('skipped');
    const failing = {
      send: async () => {
        throw new Error('421 busy');
      },
    };
    const next = await sendRequestedMail(job({ email: 'kunde@customer.example' }), { store, directory, mailer: failing, now: () => new Date(0) });
    expect(next).toEqual({ status: 'pending', nextAttemptAt: new Date(5000), error: '421 busy' });
    expect(sent).toEqual(['ops@acme.example']);
  });
});
