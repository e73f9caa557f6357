import { ApiClient, ReceivedMail, Stack, bootStack, shutdownStack, waitFor } from '@rental/testkit';
import type { ManagedProcess } from '@rental/stack';
import { Owner, eventsOf, expectProblem, newCase, newPartner, query } from '../case-workflow/support/kit';
import { mailOf, mailsTo, quoteInProgress, requestItems, startReplica, tokenOf } from './support/customer-kit';

// The clock over real processes with seconds-scale settings, and with two replicas of
// case-workflow, documents and notifications: every mail is sent once, every move applied once.

const TICK_MS = 1000;
const REMINDER_AFTER_MS = 2000;
const EXPIRY_AFTER_MS = 8000;
const GRACE_MS = 4000;
/** How long past its due time an effect may take on a loaded machine before the test gives up. */
const SLACK_MS = 10_000;

let stack: Stack;
let owner: Owner;
let customer: ApiClient;
const replicas: ManagedProcess[] = [];

beforeAll(async () => {
  stack = await bootStack({
    env: { SCHEDULER_TICK: '1s', REVIEW_REMINDER_AFTER: '2s', REVIEW_REMINDER_MAX: '2', REVIEW_EXPIRY_AFTER: '8s', DOCUMENT_OVERDUE_GRACE: '4s' },
  });
  replicas.push(await startReplica(stack, 'case-workflow'), await startReplica(stack, 'documents'), await startReplica(stack, 'notifications'));
  owner = await newPartner(stack);
  customer = new ApiClient(stack.gatewayUrl);
}, 120_000);

afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.stop()));
  if (stack) await shutdownStack(stack);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const transitionsOf = async (caseId: string) => (await eventsOf(caseId, stack)).map((event) => event.data.transition);
const reminders = (mails: ReceivedMail[]) => mails.filter((mail) => mail.subject.startsWith('Reminder:'));
const partnerMails = async (text: string) => (await mailOf(stack)).filter((mail) => mail.subject.includes(text));

describe('reminders and expiry', () => {
  it('when the customer does not answer, then two reminders come and never a third, the review expires once with its event, the link answers 410 and the partner is mailed once', async () => {
    const { caseId, quoteId, email } = await quoteInProgress(owner, stack);
    const sent = await owner.api.post(`/api/financing_cases/${caseId}/send-to-customer`, {});
    expect(sent.status).toBe(200);
    const sentAt = Date.now();

    await waitFor(async () => (reminders(await mailsTo(email as string, stack)).length === 2 ? true : undefined), {
      timeoutMs: 2 * REMINDER_AFTER_MS + SLACK_MS,
      what: 'two reminders',
    });
    const quote = (await owner.api.get(`/api/quotes/${quoteId}`)).json;
    expect([quote.status, quote.inReview, quote.reminderCount, quote.hasReceivedReminder, quote.receivedReminder]).toEqual(['in_review', true, 2, true, true]);
    expect(Date.parse(quote.lastReminderAt)).toBeGreaterThan(sentAt);
    // A reminder is no status change: no event.
    expect(await transitionsOf(caseId)).toEqual(['create', 'finalize']);
    // …but each is an entry of the case's history, by the system (issue 27 item 7).
    expect(
      await query(
        'SELECT actor_type, actor_id, action, reason FROM case_history WHERE financing_case_id = $1 AND action = $2 ORDER BY id',
        [caseId, 'remind'],
        stack,
      ),
    ).toEqual([
      { actor_type: 'system', actor_id: null, action: 'remind', reason: null },
      { actor_type: 'system', actor_id: null, action: 'remind', reason: null },
    ]);

    await waitFor(async () => ((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status === 'review_expired' ? true : undefined), {
      timeoutMs: EXPIRY_AFTER_MS + SLACK_MS,
      what: 'the expiry',
    });
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(EXPIRY_AFTER_MS - TICK_MS);
    // Long enough for a third reminder and a second expiry, had either been possible.
    await sleep(REMINDER_AFTER_MS + 2 * TICK_MS);
    const mails = await mailsTo(email as string, stack);
    expect([mails.length, reminders(mails).length]).toEqual([3, 2]);
    expect(new Set(mails.map((mail) => tokenOf(/(https?:\/\/\S+\/c\/[A-Za-z0-9_-]+)/.exec(mail.text)?.[1] as string))).size).toBe(3);
    expect(await transitionsOf(caseId)).toEqual(['create', 'finalize', 'expire']);
    const expired = (await owner.api.get(`/api/quotes/${quoteId}`)).json;
    expect([expired.status, expired.inReview, expired.inReviewSince, expired.reminderCount]).toEqual(['review_expired', false, null, 2]);
    expectProblem(await customer.get(`/customer/v1/quotes/${tokenOf(sent.json.customerUrl)}`), 410, 'customer.link_expired', stack);
    const history = await query('SELECT actor_type, action, reason FROM case_history WHERE financing_case_id = $1 AND action = $2', [caseId, 'expire'], stack);
    expect(history).toEqual([{ actor_type: 'system', action: 'expire', reason: 'review_expired' }]);
    await waitFor(async () => ((await partnerMails(`Offer ${quote.quoteNumber} expired`)).length === 1 ? true : undefined), {
      what: "the partner's expiry mail",
      timeoutMs: SLACK_MS,
    });
    await sleep(2 * TICK_MS);
    expect(await partnerMails(`Offer ${quote.quoteNumber} expired`)).toHaveLength(1);
  }, 60_000);

  it('when an expired review is sent again, then it is reactivated into in_review with a new review period and working link', async () => {
    const { caseId, quoteId } = await quoteInProgress(owner, stack);
    await owner.api.post(`/api/financing_cases/${caseId}/send-to-customer`, {});
    await waitFor(async () => ((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status === 'review_expired' ? true : undefined), {
      timeoutMs: EXPIRY_AFTER_MS + SLACK_MS,
      what: 'the expiry',
    });
    const before = Date.now();
    const again = await owner.api.post(`/api/financing_cases/${caseId}/send-to-customer`, {});
    expect([again.status, again.json.status]).toEqual([200, 'in_review']);
    expect(await transitionsOf(caseId)).toEqual(['create', 'finalize', 'expire', 'reactivate']);
    const quote = (await owner.api.get(`/api/quotes/${quoteId}`)).json;
    expect([quote.status, quote.inReview, quote.reminderCount, quote.hasReceivedReminder]).toEqual(['in_review', true, 0, false]);
    expect(Date.parse(quote.inReviewSince)).toBeGreaterThanOrEqual(before - 1000);
    expect((await customer.get(`/customer/v1/quotes/${tokenOf(again.json.customerUrl)}`)).status).toBe(200);
  }, 60_000);
});

describe('overdue requests', () => {
  it('when a required item stays pending past its due date, then the partner is mailed once, and after the grace the case is canceled once by the system with its event', async () => {
    const { caseId } = await newCase(owner, {}, stack);
    const dueAt = new Date(Date.now() + 1000).toISOString();
    await requestItems(stack, owner.partner.id, caseId, 'document', [
      { label: 'Annual statement', category: 'annual_financial_statement', targetAudience: 'partner', dueAt },
    ]);
    const caseNumber = (await query<{ case_number: string }>('SELECT case_number FROM financing_cases WHERE id = $1', [caseId], stack))[0]
      ?.case_number as string;

    await waitFor(async () => ((await partnerMails(`Financing case ${caseNumber}: requested items are overdue`)).length === 1 ? true : undefined), {
      timeoutMs: SLACK_MS,
      what: 'the overdue notice',
    });
    expect((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status).toBe('finance_review');

    await waitFor(async () => ((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status === 'canceled' ? true : undefined), {
      timeoutMs: GRACE_MS + SLACK_MS,
      what: 'the overdue cancel',
    });
    expect(Date.now() - Date.parse(dueAt)).toBeGreaterThanOrEqual(GRACE_MS - TICK_MS);
    await sleep(3 * TICK_MS);
    expect(await transitionsOf(caseId)).toEqual(['create', 'accept_by_customer', 'request_finance_review', 'cancel']);
    expect(await partnerMails(`Financing case ${caseNumber}: requested items are overdue`)).toHaveLength(1);
    const history = await query('SELECT actor_type, action, reason FROM case_history WHERE financing_case_id = $1 AND action = $2', [caseId, 'cancel'], stack);
    expect(history).toEqual([{ actor_type: 'system', action: 'cancel', reason: 'overdue_documents' }]);
  }, 60_000);

  it('when an optional item stays pending past its due date and the grace, then nothing is mailed and the case is never canceled', async () => {
    const { caseId } = await newCase(owner, {}, stack);
    await requestItems(stack, owner.partner.id, caseId, 'document', [
      { label: 'Offer', category: 'purchase_offer', targetAudience: 'customer', optional: true, dueAt: new Date(Date.now() - GRACE_MS - 1000).toISOString() },
    ]);
    const caseNumber = (await query<{ case_number: string }>('SELECT case_number FROM financing_cases WHERE id = $1', [caseId], stack))[0]
      ?.case_number as string;
    await sleep(4 * TICK_MS);
    expect((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status).toBe('finance_review');
    expect(await transitionsOf(caseId)).toEqual(['create', 'accept_by_customer', 'request_finance_review']);
    expect(await partnerMails(`Financing case ${caseNumber}:`)).toEqual([]);
  }, 60_000);
});
