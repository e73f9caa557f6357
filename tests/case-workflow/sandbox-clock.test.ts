import { ApiClient, ReceivedMail, WebhookReceiver, waitFor } from '@rental/testkit';
import { mailOf, mailsTo, quoteInProgress, requestItems, tokenOf } from '../customer/support/customer-kit';
import { Owner, eventsOf, expectProblem, expectViolations, newCase, newPartner, query, sharedStack } from './support/kit';

// The sandbox clock (test clocks) over the shared stack's real processes, with the default clock
// settings: reminders 3d after the last mail (at most 2), expiry 14d after entering review,
// overdue cancel 7d after the due date, customer links 30d.

const DAY = 86_400_000;

let owner: Owner;
let hook: WebhookReceiver;
let customer: ApiClient;

beforeAll(async () => {
  owner = await newPartner();
  hook = await WebhookReceiver.start();
  const registered = await owner.api.post('/api/webhook_endpoints', { url: `${hook.url}/clock`, active: true });
  expect(registered.status).toBe(201);
  customer = new ApiClient(sharedStack().gatewayUrl);
});

afterAll(async () => {
  await hook?.close();
});

const advance = (caseId: string, body: unknown, api = owner.api) => api.post(`/api/sandbox/financing_cases/${caseId}/advance-clock`, body);
const transitionsOf = async (caseId: string) => (await eventsOf(caseId)).map((event) => event.data.transition);
const reminders = (mails: ReceivedMail[]) => mails.filter((mail) => mail.subject.startsWith('Reminder:'));
const mailsWith = async (subject: string) => (await mailOf(sharedStack())).filter((mail) => mail.subject.includes(subject));
const webhookTransitions = (caseId: string) =>
  hook
    .bodies()
    .filter((body) => body.data?.financingCaseId === caseId)
    .map((body) => body.data.transition as string);
const iso = (ms: number) => new Date(ms).toISOString();

async function quoteInReview(): Promise<{ caseId: string; quoteId: string; email: string; token: string; reviewMailedAt: number; inReviewSince: number }> {
  const { caseId, quoteId, email } = await quoteInProgress(owner, sharedStack());
  const sent = await owner.api.post(`/api/financing_cases/${caseId}/send-to-customer`, {});
  expect(sent.status).toBe(200);
  const [row] = await query<{ review_mailed_at: Date; in_review_since: Date }>('SELECT review_mailed_at, in_review_since FROM quotes WHERE id = $1', [quoteId]);
  return {
    caseId,
    quoteId,
    email: email as string,
    token: tokenOf(sent.json.customerUrl),
    reviewMailedAt: (row?.review_mailed_at as Date).getTime(),
    inReviewSince: (row?.in_review_since as Date).getTime(),
  };
}

describe('POST /api/sandbox/financing_cases/{financingCaseId}/advance-clock', () => {
  it('when a case in review is advanced 15 days, then it gets two reminders and expires with its event and webhook, its link answers 410, and another case of the partner stays as it was', async () => {
    const review = await quoteInReview();
    const other = await quoteInReview();

    const advanced = await advance(review.caseId, { by: '15d' });

    expect([advanced.status, advanced.contentType]).toEqual([200, 'application/json; charset=utf-8']);
    const firstReminder = review.reviewMailedAt + 3 * DAY;
    expect(advanced.json).toEqual({
      financingCaseId: review.caseId,
      clockOffset: '15d',
      applied: [
        { action: 'remind', at: iso(firstReminder) },
        { action: 'remind', at: iso(firstReminder + 3 * DAY) },
        { action: 'expire', at: iso(review.inReviewSince + 14 * DAY) },
      ],
      status: 'review_expired',
    });
    expect(await transitionsOf(review.caseId)).toEqual(['create', 'finalize', 'expire']);
    await waitFor(async () => (webhookTransitions(review.caseId).includes('expire') ? true : undefined), { timeoutMs: 20_000, what: 'the expire webhook' });
    await waitFor(async () => (reminders(await mailsTo(review.email, sharedStack())).length === 2 ? true : undefined), {
      timeoutMs: 20_000,
      what: 'two reminder mails',
    });
    const quote = (await owner.api.get(`/api/quotes/${review.quoteId}`)).json;
    expect([quote.status, quote.inReview, quote.inReviewSince, quote.reminderCount, quote.hasReceivedReminder, quote.lastReminderAt]).toEqual([
      'review_expired',
      false,
      null,
      2,
      true,
      iso(firstReminder + 3 * DAY),
    ]);
    expectProblem(await customer.get(`/customer/v1/quotes/${review.token}`), 410, 'customer.link_expired');
    expect(
      await query('SELECT actor_type, actor_id, action, reason, at FROM case_history WHERE financing_case_id = $1 AND action IN ($2, $3, $4) ORDER BY id', [
        review.caseId,
        'remind',
        'expire',
        'advance_clock',
      ]),
    ).toEqual([
      { actor_type: 'system', actor_id: null, action: 'remind', reason: null, at: new Date(firstReminder) },
      { actor_type: 'system', actor_id: null, action: 'remind', reason: null, at: new Date(firstReminder + 3 * DAY) },
      { actor_type: 'system', actor_id: null, action: 'expire', reason: 'review_expired', at: new Date(review.inReviewSince + 14 * DAY) },
      { actor_type: 'partner', actor_id: owner.partner.id, action: 'advance_clock', reason: null, at: expect.any(Date) },
    ]);
    await waitFor(async () => ((await mailsWith(`Offer ${quote.quoteNumber} expired`)).length === 1 ? true : undefined), {
      timeoutMs: 20_000,
      what: "the partner's expiry mail",
    });

    const untouched = (await owner.api.get(`/api/quotes/${other.quoteId}`)).json;
    expect([untouched.status, untouched.inReview, untouched.reminderCount]).toEqual(['in_review', true, 0]);
    expect(await transitionsOf(other.caseId)).toEqual(['create', 'finalize']);
    expect((await customer.get(`/customer/v1/quotes/${other.token}`)).status).toBe(200);
    expect(await query('SELECT clock_offset_ms::int AS offset FROM financing_cases WHERE id = $1', [other.caseId])).toEqual([{ offset: 0 }]);
    expect(reminders(await mailsTo(other.email, sharedStack()))).toEqual([]);
  }, 60_000);

  it('when the same advance is sent again, then the clock moves on but no effect is applied twice: no third reminder, no second expiry, mail or event', async () => {
    const review = await quoteInReview();
    expect((await advance(review.caseId, { by: '15d' })).json.applied).toHaveLength(3);

    const again = await advance(review.caseId, { by: '15d' });

    expect([again.status, again.json]).toEqual([200, { financingCaseId: review.caseId, clockOffset: '30d', applied: [], status: 'review_expired' }]);
    await waitFor(async () => ((await mailsTo(review.email, sharedStack())).length === 3 ? true : undefined), {
      timeoutMs: 20_000,
      what: 'the link mail and two reminders',
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(reminders(await mailsTo(review.email, sharedStack()))).toHaveLength(2);
    expect(await transitionsOf(review.caseId)).toEqual(['create', 'finalize', 'expire']);
    expect(
      await query('SELECT count(*)::int AS n FROM case_history WHERE financing_case_id = $1 AND action IN ($2, $3)', [review.caseId, 'remind', 'expire']),
    ).toEqual([{ n: 3 }]);
  }, 60_000);

  it('when two advances of one case race, then each effect is applied once: one answers 200 and the other 200 after it or 409 sandbox.clock_advancing', async () => {
    const review = await quoteInReview();

    const answers = await Promise.all([advance(review.caseId, { by: '15d' }), advance(review.caseId, { by: '15d' })]);

    const statuses = answers.map((answer) => answer.status).sort();
    expect([
      [200, 200],
      [200, 409],
    ]).toContainEqual(statuses);
    for (const answer of answers.filter((candidate) => candidate.status === 409)) expectProblem(answer, 409, 'sandbox.clock_advancing');
    const applied = answers
      .filter((answer) => answer.status === 200)
      .flatMap((answer) => answer.json.applied.map((effect: { action: string }) => effect.action));
    expect(applied).toEqual(['remind', 'remind', 'expire']);
    const [row] = await query<{ offset: number }>('SELECT clock_offset_ms::bigint / 86400000 AS offset FROM financing_cases WHERE id = $1', [review.caseId]);
    expect(Number(row?.offset)).toBe(statuses[1] === 409 ? 15 : 30);
    expect(await transitionsOf(review.caseId)).toEqual(['create', 'finalize', 'expire']);
  }, 60_000);

  it('when a case with an open required request is advanced past its due date and the grace, then the partner is noticed once and the system cancels the case with its event and webhook', async () => {
    const { caseId } = await newCase(owner);
    const dueAt = Date.now() + DAY;
    await requestItems(sharedStack(), owner.partner.id, caseId, 'document', [
      { label: 'Annual statement', category: 'annual_financial_statement', targetAudience: 'partner', dueAt: iso(dueAt) },
    ]);
    const [{ case_number: caseNumber }] = (await query<{ case_number: string }>('SELECT case_number FROM financing_cases WHERE id = $1', [caseId])) as [
      { case_number: string },
    ];

    const advanced = await advance(caseId, { by: '9d' });

    expect([advanced.status, advanced.json]).toEqual([
      200,
      {
        financingCaseId: caseId,
        clockOffset: '9d',
        applied: [
          { action: 'overdue_notice', at: iso(dueAt) },
          { action: 'cancel', at: iso(dueAt + 7 * DAY) },
        ],
        status: 'canceled',
      },
    ]);
    expect(await transitionsOf(caseId)).toEqual(['create', 'accept_by_customer', 'request_finance_review', 'cancel']);
    expect(await query('SELECT actor_type, action, reason, at FROM case_history WHERE financing_case_id = $1 AND action = $2', [caseId, 'cancel'])).toEqual([
      { actor_type: 'system', action: 'cancel', reason: 'overdue_documents', at: new Date(dueAt + 7 * DAY) },
    ]);
    await waitFor(async () => (webhookTransitions(caseId).includes('cancel') ? true : undefined), { timeoutMs: 20_000, what: 'the cancel webhook' });
    await waitFor(async () => ((await mailsWith(`Financing case ${caseNumber}: requested items are overdue`)).length === 1 ? true : undefined), {
      timeoutMs: 20_000,
      what: 'the overdue notice',
    });

    const again = await advance(caseId, { by: '9d' });
    expect([again.status, again.json.applied, again.json.status, again.json.clockOffset]).toEqual([200, [], 'canceled', '18d']);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await mailsWith(`Financing case ${caseNumber}: requested items are overdue`)).toHaveLength(1);
    expect(await transitionsOf(caseId)).toEqual(['create', 'accept_by_customer', 'request_finance_review', 'cancel']);
  }, 60_000);

  it('when a customer link outlives its review (changes requested), then advancing past its end lists link_expired and the link answers 410', async () => {
    const review = await quoteInReview();
    const feedback = await customer.post(`/customer/v1/quotes/${review.token}/feedback`, { action: 'request_changes', text: 'Two more laptops, please.' });
    expect(feedback.status).toBe(200);
    const [link] = await query<{ expires_at: Date }>('SELECT expires_at FROM customer_links WHERE financing_case_id = $1', [review.caseId]);

    const advanced = await advance(review.caseId, { by: '31d' });

    expect([advanced.status, advanced.json]).toEqual([
      200,
      {
        financingCaseId: review.caseId,
        clockOffset: '31d',
        applied: [{ action: 'link_expired', at: (link?.expires_at as Date).toISOString() }],
        status: 'change_requested',
      },
    ]);
    expectProblem(await customer.get(`/customer/v1/quotes/${review.token}`), 410, 'customer.link_expired');
  }, 60_000);

  it("when another partner's case, an unknown case or a read-only key is used, then 403, 404 and 403 and nothing moves", async () => {
    const review = await quoteInReview();
    const stranger = await newPartner();

    expectProblem(await advance(review.caseId, { by: '15d' }, stranger.api), 403, 'financing_case.forbidden');
    expectProblem(await advance('01JABCDEFGHJKMNPQRSTVWXYZ0', { by: '15d' }), 404, 'financing_case.not_found');
    expectProblem(await advance(review.caseId, { by: '15d' }, owner.readOnly), 403, 'auth.role_required');
    expect(await transitionsOf(review.caseId)).toEqual(['create', 'finalize']);
    expect(await query('SELECT clock_offset_ms::int AS offset FROM financing_cases WHERE id = $1', [review.caseId])).toEqual([{ offset: 0 }]);
  }, 60_000);

  it.each([
    ['a duration without unit', { by: '15' }, 'validation.format'],
    ['zero', { by: '0s' }, 'validation.format'],
    ['a negative duration', { by: '-1d' }, 'validation.format'],
    ['more than 60 days', { by: '61d' }, 'validation.format'],
    ['a number', { by: 15 }, 'validation.type'],
    ['no by', {}, 'validation.required'],
  ])('when by is %s, then 422 at by and nothing moves', async (_label, body, code) => {
    const { caseId } = await newCase(owner);

    expectViolations(await advance(caseId, body), [['by', code]]);

    expect(await query('SELECT clock_offset_ms::int AS offset FROM financing_cases WHERE id = $1', [caseId])).toEqual([{ offset: 0 }]);
  });
});
