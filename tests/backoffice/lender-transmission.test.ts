import { DEMO_SEED_FILE, readSeedFile } from '@rental/stack/fixture';
import { ReceivedMail, Stack, bootStack, shutdownStack, waitFor } from '@rental/testkit';
import { sampleFile, upload } from '../documents/support/kit';
import { OutsideParty, SignedRequest } from '../lender/support/outside-parties';
import { Ops, Owner, expectProblem, newCase, newPartner, query } from './support/kit';

/**
 * The back office's calls that reach the lender, against a production stack of its own: lender-a's
 * intake is a real HTTP server of this test that verifies every signature it gets.
 */
const seed = readSeedFile(DEMO_SEED_FILE);
const lenderA = seed.lenders.find((lender) => lender.id === 'lender-a')!;
const acme = seed.partners.find((partner) => partner.id === 'acme')!;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MAX_ATTEMPTS = 2;

let stack: Stack;
let lender: OutsideParty;
let reviewer: Ops;
let approver: Ops;

const referenceFor = (request: SignedRequest) => `REF-${String(request.body?.data?.applicationId).slice(-8)}`;
/** Applications get a reference, attachments a 204: a lender that takes everything. */
const lenderTakesAll = () =>
  lender.answerWith((request) => (request.path.endsWith('/attachments') ? { status: 204 } : { status: 200, body: { reference: referenceFor(request) } }));

beforeAll(async () => {
  lender = await OutsideParty.start(lenderA.webhookSecret, () => ({ status: 500 }));
  lenderTakesAll();
  stack = await bootStack({
    environment: 'production',
    env: { LENDER_MAX_ATTEMPTS: String(MAX_ATTEMPTS), LENDER_SUBMISSION_POLL_MS: '200', DOCUMENT_DUE_AFTER: '7d' },
  });
  reviewer = await Ops.as('reviewer', stack);
  approver = await Ops.as('approver', stack);
}, 180_000);

afterAll(async () => {
  if (stack) await shutdownStack(stack);
  await lender?.close();
});

/** A partner like acme, financed by lender-a at the test's intake (every seed loads the fixture's null intakeUrl again). */
async function partnerOfTestLender(): Promise<Owner> {
  const owner = await newPartner(stack);
  await query('UPDATE lenders SET intake_url = $1 WHERE id = $2', [`${lender.url}/lender-a`, 'lender-a'], stack);
  return owner;
}

async function submission(caseId: string) {
  const [row] = await query<{ lender_submission_status: string | null; financing_number: string | null }>(
    'SELECT lender_submission_status, financing_number FROM quotes WHERE financing_case_id = $1',
    [caseId],
    stack,
  );
  return row!;
}

async function submittedCase(): Promise<{ owner: Owner; caseId: string; reference: string }> {
  const owner = await partnerOfTestLender();
  const { caseId } = await newCase(owner, {}, stack);
  const reference = await waitFor(
    async () => {
      const found = await submission(caseId);
      return found.lender_submission_status === 'submitted' ? (found.financing_number ?? undefined) : undefined;
    },
    { timeoutMs: 20_000, what: 'the submission' },
  );
  return { owner, caseId, reference };
}

/** A partner-audience document request with the partner's PDF for it, not yet reviewed. */
async function uploadedDocument(owner: Owner, caseId: string, fileName = 'statement.pdf') {
  const created = await reviewer.post(`/ops/v1/cases/${caseId}/requests`, {
    items: [{ type: 'document', label: 'Annual statement 2025', category: 'annual_financial_statement' }],
  });
  expect(created.status).toBe(201);
  const itemId = created.json[0].id as number;
  const bytes = sampleFile('pdf');
  const uploaded = await upload(owner.api, caseId, {
    file: { bytes, name: fileName, type: 'application/pdf' },
    category: 'annual_financial_statement',
    requestedDocumentId: itemId,
  });
  expect(uploaded.status).toBe(201);
  return { itemId, documentId: uploaded.json.id as number, bytes };
}

/** A verified document and an answered question of the partner's, ready to transmit. */
async function readyItems(owner: Owner, caseId: string) {
  const document = await uploadedDocument(owner, caseId);
  expect((await reviewer.post(`/ops/v1/documents/${document.documentId}/review`, { status: 'VERIFIED' })).status).toBe(200);
  const asked = await reviewer.post(`/ops/v1/cases/${caseId}/requests`, {
    items: [{ type: 'information', question: 'How many employees does the company have?' }],
  });
  const informationId = asked.json[0].id as number;
  const answered = await owner.api.post(`/api/financing-cases/${caseId}/document-requests/information/${informationId}/respond`, { response: '42 employees' });
  expect(answered.status).toBe(200);
  return {
    ...document,
    informationId,
    body: {
      items: [
        { type: 'document', id: document.itemId },
        { type: 'information', id: informationId },
      ],
    },
  };
}

const partnerItems = async (owner: Owner, caseId: string) =>
  (await owner.api.get(`/api/financing-cases/${caseId}/document-requests`)).json as Record<string, unknown>[];
const historyOf = async (caseId: string) =>
  (await reviewer.get(`/ops/v1/cases/${caseId}`)).json.history as {
    actor: { type: string; id: string | null };
    action: string;
    details: Record<string, unknown> | null;
  }[];
const attachmentsFor = (caseId: string) => lender.about(caseId).filter((request) => request.path.endsWith('/attachments'));
const applicationsFor = (caseId: string) => lender.about(caseId).filter((request) => request.path === '/lender-a/applications');

/** Waits until the case's latest submission is submitted (taken by the lender). */
async function submitted(caseId: string, what: string): Promise<void> {
  await waitFor(async () => ((await submission(caseId)).lender_submission_status === 'submitted' ? true : undefined), { timeoutMs: 20_000, what });
}

/** Waits until the case's submission has failed its last attempt and that attempt's lease is released (its outcome recorded). */
async function lastAttemptFailed(caseId: string, timeoutMs: number, what: string): Promise<void> {
  await waitFor(
    async () => {
      const [row] = await query<{ status: string; attempts: number; lease_until: Date | null }>(
        'SELECT status, attempts, lease_until FROM lender_submissions WHERE financing_case_id = $1',
        [caseId],
        stack,
      );
      return row?.status === 'failed' && row.attempts === MAX_ATTEMPTS && row.lease_until === null ? true : undefined;
    },
    { timeoutMs, what },
  );
}

describe('transmission to the lender', () => {
  afterEach(lenderTakesAll);

  it('when a reviewer transmits a verified document and an answer, then the lender gets them signed for its reference, the items are sent and the history has the transmit', async () => {
    const { owner, caseId, reference } = await submittedCase();
    const { itemId, informationId, bytes, body } = await readyItems(owner, caseId);

    const response = await reviewer.post(`/ops/v1/cases/${caseId}/transmit`, body);

    expect([response.status, response.json.id]).toEqual([200, caseId]);
    const [request, ...more] = attachmentsFor(caseId);
    expect(more).toEqual([]);
    expect(request!.verified).toBe(true);
    expect(request!.path).toBe(`/lender-a/applications/${encodeURIComponent(reference)}/attachments`);
    const [application] = applicationsFor(caseId);
    expect(request!.body).toEqual({
      type: 'application.attachments',
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      data: {
        applicationId: application!.body.data.applicationId,
        financingCaseId: caseId,
        items: [
          {
            id: itemId,
            type: 'document',
            label: 'Annual statement 2025',
            category: 'annual_financial_statement',
            documents: [{ fileName: 'statement.pdf', mimeType: 'application/pdf', contentBase64: bytes.toString('base64') }],
          },
          { id: informationId, type: 'information', label: 'How many employees does the company have?', category: 'other', answer: '42 employees' },
        ],
      },
    });
    const items = await partnerItems(owner, caseId);
    for (const id of [itemId, informationId])
      expect(items.find((item) => item.id === id)).toMatchObject({ status: 'sent', transmittedToLenderAt: expect.stringMatching(ISO) });
    const transmits = (await historyOf(caseId)).filter((entry) => entry.action === 'transmit');
    expect(transmits).toEqual([expect.objectContaining({ actor: expect.objectContaining({ type: 'operator', id: 'op-rene' }), details: body })]);
  });

  it('when the lender answers 500, then transmit is 502 problem+json and the items and the history stay as they were', async () => {
    const { owner, caseId } = await submittedCase();
    const { itemId, informationId, body } = await readyItems(owner, caseId);
    const itemsBefore = await partnerItems(owner, caseId);
    const historyBefore = await historyOf(caseId);
    lender.answerWith((request) => (request.path.endsWith('/attachments') ? { status: 500 } : { status: 200, body: { reference: referenceFor(request) } }));

    const response = await reviewer.post(`/ops/v1/cases/${caseId}/transmit`, body);

    expectProblem(response, 502, 'lender.failed', stack);
    expect(attachmentsFor(caseId)).toHaveLength(1);
    const itemsAfter = await partnerItems(owner, caseId);
    expect(itemsAfter).toEqual(itemsBefore);
    expect(itemsAfter.filter((item) => item.id === itemId || item.id === informationId).map((item) => [item.status, item.transmittedToLenderAt])).toEqual([
      ['accepted', null],
      ['provided', null],
    ]);
    expect(await historyOf(caseId)).toEqual(historyBefore);
  });

  it('when the case has no lender reference, then transmit is 422 and the lender is not called', async () => {
    const owner = await partnerOfTestLender();
    const { caseId } = await newCase(owner, { submitFinancing: false }, stack);
    const { body } = await readyItems(owner, caseId);

    const response = await reviewer.post(`/ops/v1/cases/${caseId}/transmit`, body);

    expectProblem(response, 422, 'ops.no_lender_reference', stack);
    expect(lender.about(caseId)).toEqual([]);
    expect((await partnerItems(owner, caseId)).map((item) => item.transmittedToLenderAt)).toEqual([null, null]);
  });
});

describe('resubmission to the lender', () => {
  afterEach(lenderTakesAll);

  it('when the last submission did not fail, then resubmit is 422 and the lender gets nothing new', async () => {
    const { caseId } = await submittedCase();

    expectProblem(await reviewer.post(`/ops/v1/cases/${caseId}/resubmit`), 422, 'ops.resubmit_not_applicable', stack);
    expect(applicationsFor(caseId)).toHaveLength(1);
  });

  it('when the lender failed every attempt, then resubmit is 200, the lender gets a new application with a new id, and its reference becomes the financing number', async () => {
    lender.answerWith(() => ({ status: 500 }));
    const owner = await partnerOfTestLender();
    const { caseId } = await newCase(owner, {}, stack);
    // Claiming the second attempt already counts it and keeps the first one's status 'failed', so
    // 'failed' with MAX_ATTEMPTS holds while that attempt is still on its way to the lender; the
    // lease is released only when its outcome is recorded.
    await lastAttemptFailed(caseId, 30_000, 'the last failed attempt');
    const failed = applicationsFor(caseId);
    expect(failed).toHaveLength(MAX_ATTEMPTS);
    const firstId = failed[0]!.body.data.applicationId as string;
    expect(failed.map((request) => [request.body.data.applicationId, request.headers['webhook-id']])).toEqual(failed.map(() => [firstId, firstId]));
    lenderTakesAll();

    const response = await reviewer.post(`/ops/v1/cases/${caseId}/resubmit`);

    expect([response.status, response.json.id]).toEqual([200, caseId]);
    const reference = await waitFor(
      async () => {
        const found = await submission(caseId);
        return found.lender_submission_status === 'submitted' ? (found.financing_number ?? undefined) : undefined;
      },
      { timeoutMs: 20_000, what: 'the new submission' },
    );
    const [resubmitted, ...more] = applicationsFor(caseId).slice(MAX_ATTEMPTS);
    expect(more).toEqual([]);
    expect(resubmitted!.verified).toBe(true);
    const newId = resubmitted!.body.data.applicationId as string;
    expect(newId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(newId).not.toBe(firstId);
    expect(resubmitted!.headers['webhook-id']).toBe(newId);
    expect(reference).toBe(referenceFor(resubmitted!));
    expect((await reviewer.get(`/ops/v1/cases/${caseId}`)).json.quote).toMatchObject({ lenderSubmissionStatus: 'submitted', financingNumber: reference });
  });

  it('when the last retry is still on its way to the lender, then resubmit is 422 and the lender gets no second application; once that retry failed, resubmit sends exactly one', async () => {
    let answerRetry!: () => void;
    const retryAnswered = new Promise<void>((resolve) => {
      answerRetry = resolve;
    });
    // The first attempt fails at once; the lender holds its answer to the retry (a failure too) until the reviewer has tried.
    lender.answerWith((request) =>
      applicationsFor(request.body?.data?.financingCaseId).length === 1 ? { status: 500 } : { status: 500, heldUntil: retryAnswered },
    );
    const owner = await partnerOfTestLender();
    const { caseId } = await newCase(owner, {}, stack);
    try {
      await waitFor(() => (applicationsFor(caseId).length === MAX_ATTEMPTS ? true : undefined), { timeoutMs: 30_000, what: 'the retry at the lender' });
      // What the reviewer sees meanwhile: the claim counted the retry and the status is still the first attempt's.
      expect(
        (await reviewer.get(`/ops/v1/cases/${caseId}`)).json.lenderSubmissions.map((row: { status: string; attempts: number }) => [row.status, row.attempts]),
      ).toEqual([['failed', MAX_ATTEMPTS]]);

      const refused = await reviewer.post(`/ops/v1/cases/${caseId}/resubmit`);

      expectProblem(refused, 422, 'ops.resubmit_not_applicable', stack);
      const detail = "An attempt of the case's latest lender submission is on its way to the lender; wait for its outcome before submitting again.";
      expect([refused.json.detail, refused.json.violations]).toEqual([detail, [{ propertyPath: '', code: 'ops.resubmit_not_applicable', message: detail }]]);
    } finally {
      answerRetry();
    }
    await lastAttemptFailed(caseId, 20_000, 'the held retry to fail');
    const attempts = applicationsFor(caseId);
    const firstId = attempts[0]!.body.data.applicationId as string;
    expect(attempts.map((request) => request.body.data.applicationId)).toEqual([firstId, firstId]);
    expect((await historyOf(caseId)).filter((entry) => entry.action === 'lender_resubmission')).toEqual([]);
    lenderTakesAll();

    const response = await reviewer.post(`/ops/v1/cases/${caseId}/resubmit`);

    expect([response.status, response.json.id]).toEqual([200, caseId]);
    await submitted(caseId, 'the new submission');
    const [resubmitted, ...more] = applicationsFor(caseId).slice(MAX_ATTEMPTS);
    expect(more).toEqual([]);
    expect(resubmitted!.body.data.applicationId).not.toBe(firstId);
  });

  it('when a reviewer resubmits while the failed submission waits for its retry, then that retry never reaches the lender', async () => {
    lender.answerWith(() => ({ status: 500 }));
    const owner = await partnerOfTestLender();
    const { caseId } = await newCase(owner, {}, stack);
    // After its first failure the submission waits 2 s for the retry; it is moved to minutes away (as later waits are) so the reviewer is surely first.
    const [waiting] = await waitFor(
      async () => {
        const rows = await query<{ id: number }>(
          "UPDATE lender_submissions SET next_attempt_at = now() + interval '5 minutes' WHERE financing_case_id = $1 AND status = 'failed' AND attempts = 1 AND lease_until IS NULL RETURNING id",
          [caseId],
          stack,
        );
        return rows.length === 1 ? rows : undefined;
      },
      { timeoutMs: 20_000, what: 'the first failed attempt' },
    );
    lenderTakesAll();

    const response = await reviewer.post(`/ops/v1/cases/${caseId}/resubmit`);

    expect([response.status, response.json.id]).toEqual([200, caseId]);
    await submitted(caseId, 'the new submission');
    // The old retry comes due; a later case's submission then shows the worker has claimed past it (claims go oldest first).
    // The later case is the same partner's: a new partner's seed would point lender-a at the simulator for a moment.
    await query('UPDATE lender_submissions SET next_attempt_at = now() WHERE id = $1', [waiting!.id], stack);
    const later = await newCase(owner, {}, stack);
    await submitted(later.caseId, "a later case's submission");
    const [first, resubmitted, ...more] = applicationsFor(caseId);
    expect(more).toEqual([]);
    expect(resubmitted!.body.data.applicationId).not.toBe(first!.body.data.applicationId);
    const [old] = await query<{ status: string; attempts: number }>('SELECT status, attempts FROM lender_submissions WHERE id = $1', [waiting!.id], stack);
    expect(old).toEqual({ status: 'failed', attempts: 1 });
    expect((await submission(caseId)).financing_number).toBe(referenceFor(resubmitted!));
  });
});

describe('document review mail', () => {
  const documentMails = async (caseId: string) =>
    ((await (await fetch(`${stack.controlUrl}/mail`)).json()) as ReceivedMail[]).filter(
      (mail) => mail.subject === `Financing case ${caseId}: document rejected`,
    );

  it("when a reviewer rejects a document, then the partner is mailed once with the document and the reason; an approver's verification mails nobody", async () => {
    const owner = await partnerOfTestLender();
    const { caseId } = await newCase(owner, { submitFinancing: false }, stack);
    const verified = await uploadedDocument(owner, caseId, 'verified.pdf');
    const rejected = await uploadedDocument(owner, caseId, 'rejected.pdf');

    expect((await approver.post(`/ops/v1/documents/${verified.documentId}/review`, { status: 'VERIFIED' })).status).toBe(200);
    expect((await reviewer.post(`/ops/v1/documents/${rejected.documentId}/review`, { status: 'REJECTED', reason: 'Unreadable scan' })).status).toBe(200);

    // The verification's outbox row comes before the rejection's: once the rejection's mail is here, a mail for the verification would be too.
    const [mail, ...more] = await waitFor(
      async () => {
        const found = await documentMails(caseId);
        return found.length > 0 ? found : undefined;
      },
      { timeoutMs: 20_000, what: 'the rejection mail' },
    );
    expect(more).toEqual([]);
    expect(mail!.to).toEqual([acme.contactEmail]);
    expect(mail!.text).toContain(`rejected.pdf (document ${rejected.documentId})`);
    expect(mail!.text).toContain('Reason: Unreadable scan');
    expect(mail!.text).not.toContain('verified.pdf');
    const allMails = (await (await fetch(`${stack.controlUrl}/mail`)).json()) as ReceivedMail[];
    expect(allMails.filter((received) => received.text.includes(`document ${verified.documentId})`) && received.text.includes(caseId))).toEqual([]);
  });
});
