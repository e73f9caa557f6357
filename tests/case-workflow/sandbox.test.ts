import { randomBytes } from 'node:crypto';
import { ApiClient, fixturePartnerKey } from '@rental/testkit';
import { Owner, apiAs, eventsOf, expectApplied, expectProblem, expectViolations, movesOf, newCase, newPartner, query, simulate } from './support/kit';

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

const decide = (caseId: string, body: unknown, api = owner.api) => api.post(`/api/sandbox/financing_cases/${caseId}/finance-decision`, body);
const caseOf = async (caseId: string) => (await owner.api.get(`/api/financing_cases/${caseId}`)).json;
const quoteOf = async (quoteId: string) => (await owner.api.get(`/api/quotes/${quoteId}`)).json;
const contractOf = async (caseId: string) => {
  const [row] = await query<{ id: string }>('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId]);
  return row ? (await owner.api.get(`/api/contracts/${row.id}`)).json : undefined;
};
/** Events after the first `skip` ones. */
const newMoves = async (caseId: string, skip: number) => (await movesOf(caseId)).slice(skip);
/** Resets the case to `targetStatus`: the moves the reset made, and how many events the case had before it. */
async function reset(caseId: string, targetStatus: string): Promise<{ moves: string[]; eventsBefore: number }> {
  const eventsBefore = (await eventsOf(caseId)).length;
  await expectApplied(simulate(owner, caseId, 'reset', { targetStatus }));
  return { moves: await newMoves(caseId, eventsBefore), eventsBefore };
}

function uploadPdf(api: ApiClient, caseId: string, category: string, requestedDocumentId?: number) {
  const form = new FormData();
  form.append('category', category);
  if (requestedDocumentId !== undefined) form.append('requestedDocumentId', String(requestedDocumentId));
  const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(2048)]);
  form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'scan.pdf');
  return api.request('POST', `/api/financing-cases/${caseId}/documents`, { rawBody: form });
}

describe('POST /api/sandbox/financing_cases/{id}/finance-decision', () => {
  it('when accepted in finance review, then 204, the quote is finance_accepted with an active financing response, one event', async () => {
    const { caseId, quoteId } = await newCase(owner);
    await expectApplied(decide(caseId, { decision: 'accepted' }));
    expect(await newMoves(caseId, 3)).toEqual(['quote:finance_review>finance_accepted:finance_accept:finance_accepted']);
    expect((await quoteOf(quoteId)).activeFinancingResponses).toEqual([expect.objectContaining({ decision: 'accepted', active: true })]);
  });

  it('when rejected, then the quote is finance_rejected with one event', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(decide(caseId, { decision: 'rejected' }));
    expect(await newMoves(caseId, 3)).toEqual(['quote:finance_review>finance_rejected:finance_reject:finance_rejected']);
    expect((await caseOf(caseId)).rejectionReason).toBeNull();
  });

  it('when the quote is in manual review or has questions, then it is decidable too', async () => {
    const manual = await newCase(owner, { submitFinancing: false });
    await expectApplied(simulate(owner, manual.caseId, 'manual_finance_review'));
    await expectApplied(decide(manual.caseId, { decision: 'accepted' }));
    expect((await caseOf(manual.caseId)).status).toBe('finance_accepted');

    const questions = await newCase(owner, { submitFinancing: false });
    await query("UPDATE quotes SET status = 'finance_questions' WHERE financing_case_id = $1", [questions.caseId]);
    await expectApplied(decide(questions.caseId, { decision: 'rejected' }));
    expect(await newMoves(questions.caseId, 1)).toEqual(['quote:finance_questions>finance_rejected:finance_reject:finance_rejected']);
  });

  it.each([
    ['in_progress', false],
    ['finance_accepted', true],
  ])('when the quote is %s, then 422 and nothing happens', async (status, submitted) => {
    const { caseId } = await newCase(owner, { submitFinancing: submitted });
    if (status === 'finance_accepted') await expectApplied(decide(caseId, { decision: 'accepted' }));
    const before = (await eventsOf(caseId)).length;
    const response = await decide(caseId, { decision: 'rejected' });
    expectViolations(response, [['', 'sandbox.not_decidable']]);
    expect(response.json.detail).toBe(`The quote is ${status}; a finance decision needs it in finance_review, manual_finance_review, finance_questions.`);
    expect(await eventsOf(caseId)).toHaveLength(before);
  });

  it('when the decision is missing or unknown, then 422 at decision; not JSON is 400', async () => {
    const { caseId } = await newCase(owner);
    expectViolations(await decide(caseId, {}), [['decision', 'validation.required']]);
    const unknown = await decide(caseId, { decision: 'maybe' });
    expectViolations(unknown, [['decision', 'validation.choice']]);
    expect(unknown.json.violations[0].message).toBe('The value you selected is not a valid choice. Allowed values: accepted, rejected.');
    expectProblem(
      await owner.api.request('POST', `/api/sandbox/financing_cases/${caseId}/finance-decision`, {
        rawBody: 'decision=accepted',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
    );
    expect((await caseOf(caseId)).status).toBe('finance_review');
  });

  it("when the key lacks the role or the case is another partner's, then 403; an unknown case 404", async () => {
    const { caseId } = await newCase(owner);
    expectProblem(await decide(caseId, { decision: 'accepted' }, owner.readOnly), 403, 'auth.role_required');
    expectProblem(await decide(caseId, { decision: 'accepted' }, apiAs(fixturePartnerKey('beta'))), 403, 'financing_case.forbidden');
    expectProblem(await decide('01JABCDEFGHJKMNPQRSTVWXYZ0', { decision: 'accepted' }), 404, 'financing_case.not_found');
    expect((await caseOf(caseId)).status).toBe('finance_review');
  });
});

describe('simulate: quote scenarios', () => {
  it('when finance_review runs on an in_progress quote, then the direct review move is taken and an active financing response exists', async () => {
    const { caseId, quoteId } = await newCase(owner, { submitFinancing: false });
    await expectApplied(simulate(owner, caseId, 'finance_review'));
    expect(await newMoves(caseId, 1)).toEqual(['quote:in_progress>finance_review:request_finance_review_direct:finance_review']);
    expect((await quoteOf(quoteId)).activeFinancingResponses).toEqual([expect.objectContaining({ decision: 'review', active: true })]);
  });

  it('when manual_finance_review runs, then the manual review starts', async () => {
    const { caseId } = await newCase(owner, { submitFinancing: false });
    await expectApplied(simulate(owner, caseId, 'manual_finance_review'));
    expect(await newMoves(caseId, 1)).toEqual(['quote:in_progress>manual_finance_review:start_manual_finance_review:manual_finance_review']);
  });

  it('when finance_accepted runs from in_progress, then the shortest path is walked with one event per move', async () => {
    const { caseId, quoteId } = await newCase(owner, { submitFinancing: false });
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    expect(await newMoves(caseId, 1)).toEqual([
      'quote:in_progress>finance_review:request_finance_review_direct:finance_review',
      'quote:finance_review>finance_accepted:finance_accept:finance_accepted',
    ]);
    expect((await quoteOf(quoteId)).activeFinancingResponses).toEqual([expect.objectContaining({ decision: 'accepted', active: true })]);
  });

  it('when finance_rejected runs with a reason, then the case shows it; finance_accepted afterwards is 422 as finance-decision accepted is', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_rejected', { rejectionReason: 'Insufficient credit rating' }));
    expect(await caseOf(caseId)).toEqual(expect.objectContaining({ status: 'finance_rejected', rejectionReason: 'Insufficient credit rating' }));
    const refused = await simulate(owner, caseId, 'finance_accepted');
    expectViolations(refused, [['scenario', 'sandbox.transition_unreachable']]);
    expect(refused.json.detail).toBe('The quote is finance_rejected; finance_accepted cannot be reached from there.');
    expectViolations(await owner.api.post(`/api/sandbox/financing_cases/${caseId}/finance-decision`, { decision: 'accepted' }), [
      ['', 'sandbox.not_decidable'],
    ]);
    expect(await newMoves(caseId, 3)).toEqual(['quote:finance_review>finance_rejected:finance_reject:finance_rejected']);
  });

  it('when the quote already is in the target state, then 204 and nothing happens', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_review'));
    expect(await eventsOf(caseId)).toHaveLength(3);
  });

  it('when the target cannot be reached from the current state, then 422 naming both and nothing happens', async () => {
    const { caseId } = await newCase(owner);
    const response = await simulate(owner, caseId, 'manual_finance_review');
    expectViolations(response, [['scenario', 'sandbox.transition_unreachable']]);
    expect(response.json.detail).toBe('The quote is finance_review; manual_finance_review cannot be reached from there.');
    await expectApplied(owner.api.post(`/api/financing_cases/${caseId}/cancel`));
    expect((await simulate(owner, caseId, 'finance_accepted')).json.detail).toBe('The quote is canceled; finance_accepted cannot be reached from there.');
    expect(await eventsOf(caseId)).toHaveLength(4);
  });

  it('when canceled runs, then the cancel rules apply', async () => {
    const open = await newCase(owner, { submitFinancing: false });
    expectViolations(await simulate(owner, open.caseId, 'canceled'), [['', 'financing_case.not_cancelable']]);
    const reviewed = await newCase(owner);
    await expectApplied(simulate(owner, reviewed.caseId, 'canceled'));
    expect(await newMoves(reviewed.caseId, 3)).toEqual(['quote:finance_review>canceled:cancel:canceled']);
  });

  it('when change_requested runs on a quote in review, then request_changes applies and the message is kept as feedback; elsewhere 422', async () => {
    const { caseId, quoteId } = await newCase(owner, { submitFinancing: false });
    expectViolations(await simulate(owner, caseId, 'change_requested', { message: 'Other colour' }), [['scenario', 'sandbox.transition_unreachable']]);
    // No scenario drives a quote into the customer's review; the case is put there directly.
    await query("UPDATE quotes SET status = 'in_review' WHERE financing_case_id = $1", [caseId]);
    expectViolations(await simulate(owner, caseId, 'change_requested'), [['data.message', 'validation.required']]);
    expectViolations(await simulate(owner, caseId, 'change_requested', { message: '  ' }), [['data.message', 'validation.too_small']]);
    await expectApplied(simulate(owner, caseId, 'change_requested', { message: 'Please offer 48 months' }));
    expect(await newMoves(caseId, 1)).toEqual(['quote:in_review>change_requested:request_changes:change_requested']);
    expect((await quoteOf(quoteId)).quoteFeedbacks).toEqual([
      { id: expect.any(Number), quote: `/api/quotes/${quoteId}`, text: 'Please offer 48 months', action: 'request_changes', createdAt: expect.any(String) },
    ]);
  });
});

describe('simulate: requested items and documents', () => {
  it('when information_requested runs with a question or items, then the questions are requested; without either 422', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'information_requested', { question: 'Founding date?' }));
    await expectApplied(simulate(owner, caseId, 'information_requested', { items: [{ question: 'Employees?' }, { question: 'Tax number?' }] }));
    expectViolations(await simulate(owner, caseId, 'information_requested'), [['data.question', 'validation.required']]);
    expectViolations(await simulate(owner, caseId, 'information_requested', { items: [{ question: 7 }] }), [['data.items[0].question', 'validation.type']]);
    expect((await caseOf(caseId)).requestedInformation.map((item: { label: string }) => item.label)).toEqual(['Founding date?', 'Employees?', 'Tax number?']);
  });

  it('when requested_document runs, then financing-stage categories are requested; any other category is 422 listing the allowed ones', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'requested_document', { label: 'Register extract', category: 'business_registration' }));
    await expectApplied(
      simulate(owner, caseId, 'requested_document', {
        items: [
          { label: 'Balance sheet', category: 'annual_financial_statement' },
          { label: 'Licence', category: 'medical_license' },
        ],
      }),
    );
    const refused = await simulate(owner, caseId, 'requested_document', { label: 'Invoice', category: 'partner_invoice' });
    expectViolations(refused, [['data.category', 'validation.choice']]);
    expect(refused.json.violations[0].message).toBe(
      'The value you selected is not a valid choice. Allowed values: business_registration, annual_financial_statement, business_assessment, self_disclosure, medical_license, purchase_offer, notarized_transfer_contract, land_register_extract, property_owner_consent, partnership_agreement.',
    );
    expectViolations(await simulate(owner, caseId, 'requested_document', {}), [
      ['data.label', 'validation.required'],
      ['data.category', 'validation.required'],
    ]);
    expectViolations(await simulate(owner, caseId, 'requested_document', { items: [{ label: 'X', category: 'self_disclosure' }, { category: 'other' }] }), [
      ['data.items[1].label', 'validation.required'],
      ['data.items[1].category', 'validation.choice'],
    ]);
    expect((await caseOf(caseId)).requestedDocuments.map((item: { category: string }) => item.category)).toEqual([
      'business_registration',
      'annual_financial_statement',
      'medical_license',
    ]);
  });

  it('when requested_fill_and_return runs, then only the template categories are allowed', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'requested_fill_and_return', { label: 'Guarantee', category: 'default_guarantee' }));
    const refused = await simulate(owner, caseId, 'requested_fill_and_return', { label: 'Register', category: 'business_registration' });
    expectViolations(refused, [['data.category', 'validation.choice']]);
    expect(refused.json.violations[0].message).toBe(
      'The value you selected is not a valid choice. Allowed values: self_disclosure_template, default_guarantee.',
    );
    expect((await caseOf(caseId)).requestedFillAndReturns).toEqual([
      expect.objectContaining({ label: 'Guarantee', category: 'default_guarantee', status: 'pending' }),
    ]);
  });

  it('when document_rejected runs on a pending upload, then it is rejected and its request reopens; unknown ids are 404, twice 422', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'requested_document', { label: 'Offer', category: 'purchase_offer' }));
    const [item] = (await caseOf(caseId)).requestedDocuments;
    const uploaded = await uploadPdf(owner.api, caseId, 'purchase_offer', item.id);
    expect(uploaded.status).toBe(201);
    expect((await caseOf(caseId)).requestedDocuments[0].status).toBe('provided');
    await expectApplied(simulate(owner, caseId, 'document_rejected', { documentId: uploaded.json.id, reason: 'Blurred' }));
    expect((await caseOf(caseId)).requestedDocuments[0].status).toBe('pending');
    expectProblem(await simulate(owner, caseId, 'document_rejected', { documentId: uploaded.json.id }), 422, 'document.not_rejectable');
    expectProblem(await simulate(owner, caseId, 'document_rejected', { documentId: 2_000_000_000 }), 404, 'document.not_found');
    expectViolations(await simulate(owner, caseId, 'document_rejected', { documentId: 'abc' }), [['data.documentId', 'validation.type']]);
    expectViolations(await simulate(owner, caseId, 'document_rejected'), [['data.documentId', 'validation.required']]);
  });

  it.each([
    ['upload_rejected_type', 'document.file_type_not_allowed'],
    ['upload_rejected_size', 'document.file_too_large'],
  ])('when %s runs for an open request, then 400 with the rejected-upload problem; a missing request 422', async (scenario, code) => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'requested_document', { label: 'Offer', category: 'purchase_offer' }));
    const [item] = (await caseOf(caseId)).requestedDocuments;
    const response = await simulate(owner, caseId, scenario, { documentId: item.id });
    expectProblem(response, 400, code);
    expect(response.json.violations).toEqual([expect.objectContaining({ propertyPath: 'file', code })]);
    expectProblem(await simulate(owner, caseId, scenario, { documentId: 2_000_000_000 }), 422, 'document_request.not_open');
    expectViolations(await simulate(owner, caseId, scenario, {}), [['data.documentId', 'validation.required']]);
  });
});

describe('simulate: contract places and the signature envelope', () => {
  it('when wait_for_signing runs without a contract on an accepted quote, then one is created; again it changes nothing', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, caseId, 'wait_for_signing'));
    await expectApplied(simulate(owner, caseId, 'wait_for_signing'));
    expect(await newMoves(caseId, 4)).toEqual(['contract:new>wait_for_signing:create:finance_accepted']);
    expect(await contractOf(caseId)).toEqual(expect.objectContaining({ status: 'wait_for_signing', contractNumber: null }));
  });

  it('when a later place is simulated, then the contract walks the chain forward one event per step and a signed-contract document is attached', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, caseId, 'delivery_approved'));
    expect(await newMoves(caseId, 4)).toEqual([
      'contract:new>wait_for_signing:create:finance_accepted',
      'contract:wait_for_signing>signed:sign:finance_accepted',
      'contract:signed>post_processing_required:require_post_processing:finance_accepted',
      'contract:post_processing_required>delivery_approved:approve_delivery:finance_accepted',
    ]);
    const documents = (await owner.api.get(`/api/financing-cases/${caseId}/documents`)).json;
    expect(documents.map((document: { category: string }) => document.category)).toEqual(['signed_contract']);
    await expectApplied(simulate(owner, caseId, 'invoice_checked'));
    expect((await contractOf(caseId)).status).toBe('invoice_checked');
  });

  it('when a place lies behind the contract, then 422 naming both places', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, caseId, 'post_processing_required'));
    const response = await simulate(owner, caseId, 'signed');
    expectViolations(response, [['scenario', 'sandbox.transition_unreachable']]);
    expect(response.json.detail).toBe('The contract is post_processing_required; signed cannot be reached from there.');
  });

  it('when completed runs without a contract number, then 422 and nothing moves; with one it completes the contract and then its quote', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, caseId, 'signed'));
    const before = (await eventsOf(caseId)).length;
    expectViolations(await simulate(owner, caseId, 'completed'), [['scenario', 'contract.number_missing']]);
    expect(await eventsOf(caseId)).toHaveLength(before);
    const contract = await contractOf(caseId);
    expect((await owner.api.patch(`/api/contracts/${contract.id}/edit-contract-number`, { contractNumber: `RC-${caseId}` })).status).toBe(200);
    await expectApplied(simulate(owner, caseId, 'completed'));
    expect((await newMoves(caseId, before)).map((move) => move.split(':').slice(0, 3).join(':'))).toEqual([
      'contract:signed>post_processing_required:require_post_processing',
      'contract:post_processing_required>delivery_approved:approve_delivery',
      'contract:delivery_approved>invoice_checked:check_invoice',
      'contract:invoice_checked>completed:complete',
      'quote:finance_accepted>completed:complete',
    ]);
  });

  it('when the envelope scenarios run, then it is sent to the customer, signed or declined; the same state again is idempotent, another move 422', async () => {
    const signed = await newCase(owner);
    await expectApplied(simulate(owner, signed.caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, signed.caseId, 'signature_sent'));
    expect((await contractOf(signed.caseId)).signatureEnvelope).toEqual({
      id: expect.any(String),
      status: 'sent',
      recipients: [{ name: 'Erika Mustermann', email: 'erika@customer.example', role: 'customer' }],
    });
    await expectApplied(simulate(owner, signed.caseId, 'signature_sent'));
    await expectApplied(simulate(owner, signed.caseId, 'signature_signed'));
    await expectApplied(simulate(owner, signed.caseId, 'signature_signed'));
    expect((await contractOf(signed.caseId)).signatureEnvelope.status).toBe('signed');
    const refused = await simulate(owner, signed.caseId, 'signature_declined');
    expectViolations(refused, [['scenario', 'signature_envelope.transition_not_allowed']]);
    expect(refused.json.detail).toBe('The signature envelope is signed; it cannot become declined.');

    const declined = await newCase(owner);
    await expectApplied(simulate(owner, declined.caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, declined.caseId, 'signature_declined', { reason: 'Wrong person' }));
    expect((await contractOf(declined.caseId)).signatureEnvelope.status).toBe('declined');
    expectViolations(await simulate(owner, declined.caseId, 'signature_sent'), [['scenario', 'signature_envelope.transition_not_allowed']]);
    expect(await query('SELECT decline_reason FROM signature_envelopes WHERE contract_id = $1', [(await contractOf(declined.caseId)).id])).toEqual([
      { decline_reason: 'Wrong person' },
    ]);
  });

  it('when the contract no longer waits for signing, then the envelope scenarios are 422', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, caseId, 'signed'));
    expectViolations(await simulate(owner, caseId, 'signature_sent'), [['scenario', 'signature_envelope.contract_not_waiting']]);
  });
});

describe('simulate: reset', () => {
  it('when reset to a quote state, then contract and envelope are removed with one contract event and the quote is set there with one reset event', async () => {
    const { caseId, quoteId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, caseId, 'signature_sent'));
    await expectApplied(simulate(owner, caseId, 'information_requested', { question: 'Still open?' }));
    expect((await reset(caseId, 'finance_review')).moves).toEqual([
      'contract:wait_for_signing>removed:reset:finance_accepted',
      'quote:finance_accepted>finance_review:reset:finance_review',
    ]);
    expect(await contractOf(caseId)).toBeUndefined();
    expect((await quoteOf(quoteId)).contract).toBeNull();
    expect((await caseOf(caseId)).requestedItems).toEqual([]);
    expect((await quoteOf(quoteId)).activeFinancingResponses).toEqual([expect.objectContaining({ decision: 'review' })]);
  });

  it('when reset to a contract place, then the quote is finance_accepted and the contract is set to the place directly', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_rejected', { rejectionReason: 'No' }));
    const toDeliveryApproved = await reset(caseId, 'delivery_approved');
    expect(toDeliveryApproved.moves).toEqual([
      'quote:finance_rejected>finance_accepted:reset:finance_accepted',
      'contract:new>delivery_approved:reset:finance_accepted',
    ]);
    expect((await caseOf(caseId)).rejectionReason).toBeNull();
    expect((await owner.api.get(`/api/financing-cases/${caseId}/documents`)).json.map((document: { category: string }) => document.category)).toEqual([
      'signed_contract',
    ]);

    await expectApplied(simulate(owner, caseId, 'reset', { targetStatus: 'wait_for_signing' }));
    expect(await newMoves(caseId, toDeliveryApproved.eventsBefore + 2)).toEqual(['contract:delivery_approved>wait_for_signing:reset:finance_accepted']);
    expect((await owner.api.get(`/api/financing-cases/${caseId}/documents`)).json).toEqual([]);
  });

  it('when the case is canceled, then reset brings it back', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(owner.api.post(`/api/financing_cases/${caseId}/cancel`));
    await expectApplied(simulate(owner, caseId, 'reset', { targetStatus: 'accepted_by_customer' }));
    expect((await caseOf(caseId)).status).toBe('accepted_by_customer');
  });

  it('when the target is missing or not allowed, then 422 listing the allowed targets', async () => {
    const { caseId } = await newCase(owner);
    expectViolations(await simulate(owner, caseId, 'reset'), [['data.targetStatus', 'validation.required']]);
    const refused = await simulate(owner, caseId, 'reset', { targetStatus: 'in_progress' });
    expectViolations(refused, [['data.targetStatus', 'validation.choice']]);
    expect(refused.json.violations[0].message).toBe(
      'The value you selected is not a valid choice. Allowed values: accepted_by_customer, finance_review, manual_finance_review, finance_accepted, finance_rejected, wait_for_signing, signed, post_processing_required, delivery_approved, invoice_checked.',
    );
    expect(await eventsOf(caseId)).toHaveLength(3);
  });
});

describe('simulate: requests that are refused', () => {
  it('when the scenario is unknown or missing, then 422 listing the allowed scenarios', async () => {
    const { caseId } = await newCase(owner);
    const unknown = await simulate(owner, caseId, 'teleport');
    expectViolations(unknown, [['scenario', 'validation.choice']]);
    expect(unknown.json.detail).toContain(
      'Allowed values: finance_review, manual_finance_review, finance_accepted, finance_rejected, canceled, information_requested, requested_document, requested_fill_and_return, change_requested, document_rejected, upload_rejected_type, upload_rejected_size, wait_for_signing, signed, post_processing_required, delivery_approved, invoice_checked, completed, signature_sent, signature_signed, signature_declined, reset.',
    );
    expectViolations(await owner.api.post(`/api/sandbox/financing_cases/${caseId}/simulate`, {}), [['scenario', 'validation.required']]);
    expectViolations(await owner.api.post(`/api/sandbox/financing_cases/${caseId}/simulate`, { scenario: 'finance_rejected', data: 'reason' }), [
      ['data', 'validation.type'],
    ]);
    expectViolations(await simulate(owner, caseId, 'finance_rejected', { rejectionReason: 5 }), [['data.rejectionReason', 'validation.type']]);
    expect(await eventsOf(caseId)).toHaveLength(3);
  });

  it("when the key lacks the role, the case is another partner's or unknown, or the body is not JSON, then 403, 403, 404, 400", async () => {
    const { caseId } = await newCase(owner);
    expectProblem(await owner.readOnly.post(`/api/sandbox/financing_cases/${caseId}/simulate`, { scenario: 'finance_accepted' }), 403, 'auth.role_required');
    expectProblem(
      await apiAs(fixturePartnerKey('beta')).post(`/api/sandbox/financing_cases/${caseId}/simulate`, { scenario: 'finance_accepted' }),
      403,
      'financing_case.forbidden',
    );
    expectProblem(await simulate(owner, '01JABCDEFGHJKMNPQRSTVWXYZ0', 'finance_accepted'), 404, 'financing_case.not_found');
    expectProblem(
      await owner.api.request('POST', `/api/sandbox/financing_cases/${caseId}/simulate`, {
        rawBody: '{"scenario"',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
    );
    expectProblem(await owner.api.post(`/api/sandbox/financing_cases/${caseId}/simulate`, { scenario: 'finance_accepted' }, { key: null }), 401);
    expect((await caseOf(caseId)).status).toBe('finance_review');
  });
});
