import { Client } from 'pg';
import { fixturePartnerKey, waitFor } from '@rental/testkit';
import { createCaseViaGrpc } from '../support/cases';
import { Owner, apiAs, eventsOf, expectApplied, expectProblem, movesOf, newCase, newPartner, query, sharedStack, simulate } from './support/kit';

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

const cancel = (caseId: string, api = owner.api) => api.post(`/api/financing_cases/${caseId}/cancel`);
const statusOf = async (caseId: string) => (await owner.api.get(`/api/financing_cases/${caseId}`)).json.status;
const contractOf = async (caseId: string) =>
  (await query<{ id: string; status: string }>('SELECT id, status FROM contracts WHERE financing_case_id = $1', [caseId]))[0];

function expectRefused(response: Awaited<ReturnType<typeof cancel>>, message: string) {
  expectProblem(response, 422, 'financing_case.not_cancelable');
  expect(response.json.detail).toBe(message);
  expect(response.json.violations).toEqual([{ propertyPath: '', code: 'financing_case.not_cancelable', message }]);
}

describe('POST /api/financing_cases/{id}/cancel', () => {
  it('when a case in finance review is canceled, then 204 without body, the quote is canceled and exactly one event says so', async () => {
    const { caseId, quoteId } = await newCase(owner);
    const response = await cancel(caseId);
    expect([response.status, response.text]).toEqual([204, '']);
    expect(await statusOf(caseId)).toBe('canceled');
    const events = await eventsOf(caseId);
    expect(events).toHaveLength(4);
    expect(events[3]).toEqual(
      expect.objectContaining({
        event: 'financing_case.status_changed',
        data: {
          financingCaseId: caseId,
          quoteId,
          resourceType: 'quote',
          fromStatus: 'finance_review',
          toStatus: 'canceled',
          status: 'canceled',
          transition: 'cancel',
        },
        partnerId: owner.partner.id,
        environment: 'sandbox',
      }),
    );
  });

  it('when the case has a contract waiting for signing, then quote and contract are canceled with one event each', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, caseId, 'wait_for_signing'));
    const before = (await eventsOf(caseId)).length;
    await expectApplied(cancel(caseId));
    expect((await movesOf(caseId)).slice(before)).toEqual([
      'quote:finance_accepted>canceled:cancel:canceled',
      'contract:wait_for_signing>canceled:cancel:canceled',
    ]);
    const contract = await contractOf(caseId);
    expect((await owner.api.get(`/api/contracts/${contract!.id}`)).json.status).toBe('canceled');
  });

  it.each([
    'in_review',
    'review_expired',
    'change_requested',
    'accepted_by_customer',
    'manual_finance_review',
    'finance_questions',
    'finance_accepted',
    'completed',
  ])('when the quote is %s, then the partner may cancel', async (status) => {
    const { caseId } = await newCase(owner, { submitFinancing: false });
    // Most of these states have no driver through the API; the case is put there directly.
    await query('UPDATE quotes SET status = $2 WHERE financing_case_id = $1', [caseId, status]);
    await expectApplied(cancel(caseId));
    expect((await movesOf(caseId)).slice(1)).toEqual([`quote:${status}>canceled:cancel:canceled`]);
  });

  it('when the quote is in_progress, then cancel is refused with 422 and nothing changes', async () => {
    const { caseId } = await newCase(owner, { submitFinancing: false });
    expectRefused(await cancel(caseId), 'The financing case cannot be canceled while its quote is in_progress.');
    expect(await statusOf(caseId)).toBe('in_progress');
    expect(await eventsOf(caseId)).toHaveLength(1);
  });

  it('when the quote is finance_rejected or rejected_by_customer, then cancel is refused', async () => {
    const rejected = await newCase(owner);
    await expectApplied(owner.api.post(`/api/sandbox/financing_cases/${rejected.caseId}/finance-decision`, { decision: 'rejected' }));
    expectRefused(await cancel(rejected.caseId), 'The financing case cannot be canceled while its quote is finance_rejected.');
    expect(await eventsOf(rejected.caseId)).toHaveLength(4);

    const byCustomer = await newCase(owner, { submitFinancing: false });
    await query("UPDATE quotes SET status = 'rejected_by_customer' WHERE financing_case_id = $1", [byCustomer.caseId]);
    expectRefused(await cancel(byCustomer.caseId), 'The financing case cannot be canceled while its quote is rejected_by_customer.');
  });

  it('when the case is already canceled, then a second cancel is 422 and sends nothing', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(cancel(caseId));
    expectRefused(await cancel(caseId), 'The financing case is already canceled.');
    expect(await eventsOf(caseId)).toHaveLength(4);
  });

  it.each(['signed', 'post_processing_required', 'delivery_approved', 'invoice_checked', 'completed'])(
    'when the contract is %s, then cancel is refused and quote and contract stay',
    async (place) => {
      const { caseId } = await newCase(owner);
      await expectApplied(simulate(owner, caseId, 'finance_accepted'));
      await expectApplied(simulate(owner, caseId, 'wait_for_signing'));
      const contract = await contractOf(caseId);
      if (place === 'completed')
        expect((await owner.api.patch(`/api/contracts/${contract!.id}/edit-contract-number`, { contractNumber: `C-${caseId}` })).status).toBe(200);
      await expectApplied(simulate(owner, caseId, place));
      const before = (await eventsOf(caseId)).length;
      expectRefused(await cancel(caseId), `The financing case cannot be canceled: its contract is ${place}.`);
      // A completed contract completed its quote, as in production.
      expect(await statusOf(caseId)).toBe(place === 'completed' ? 'completed' : 'finance_accepted');
      expect((await contractOf(caseId))!.status).toBe(place);
      expect(await eventsOf(caseId)).toHaveLength(before);
    },
  );

  it('when the key lacks the api_user role, then 403 and nothing changes', async () => {
    const { caseId } = await newCase(owner);
    expectProblem(await cancel(caseId, owner.readOnly), 403, 'auth.role_required');
    expectProblem(await cancel(caseId, apiAs(fixturePartnerKey('acme', 'sandbox', 'none'))), 403, 'auth.role_required');
    expect(await statusOf(caseId)).toBe('finance_review');
  });

  it('when another partner cancels the case, then 403 and nothing changes; an unknown case is 404', async () => {
    const { caseId } = await newCase(owner);
    const stranger = await newPartner();
    expectProblem(await cancel(caseId, stranger.api), 403, 'financing_case.forbidden');
    expect(await statusOf(caseId)).toBe('finance_review');
    expectProblem(await cancel('01JABCDEFGHJKMNPQRSTVWXYZ0'), 404, 'financing_case.not_found');
    expectProblem(await cancel('no-such-case'), 404);
  });

  it('when a body is sent anyway, then it is ignored; when it is not JSON, then 400', async () => {
    const { caseId } = await newCase(owner);
    expectProblem(
      await owner.api.request('POST', `/api/financing_cases/${caseId}/cancel`, { rawBody: '{"reason": ', headers: { 'Content-Type': 'application/json' } }),
      400,
      'request.malformed_json',
    );
    expect(await statusOf(caseId)).toBe('finance_review');
    await expectApplied(owner.api.post(`/api/financing_cases/${caseId}/cancel`, { reason: 'changed my mind', status: 'in_progress' }));
    expect(await statusOf(caseId)).toBe('canceled');
  });

  it("when a case is canceled, then documents and notifications react to the quote's event: the lender and the hub are mailed", async () => {
    const { financingCaseId } = await createCaseViaGrpc(sharedStack(), 'acme');
    await expectApplied(cancel(financingCaseId, apiAs(fixturePartnerKey('acme'))));
    const cancelEvent = (await eventsOf(financingCaseId))[3]!;
    const mails = await waitFor(
      async () => {
        const received = (await (await fetch(`${sharedStack().controlUrl}/mail`)).json()) as { to: string[]; subject: string; text: string }[];
        const ours = received.filter((mail) => mail.subject === `Financing case ${financingCaseId} canceled`);
        return ours.length === 2 ? ours : undefined;
      },
      { timeoutMs: 20_000, what: 'the cancel mails' },
    );
    expect(
      mails
        .map((mail) => mail.to)
        .flat()
        .sort(),
    ).toEqual(['credit@lender-a.example', 'ops@hub-north.example']);
    const consumed = await waitFor(
      async () => {
        const client = new Client({ connectionString: sharedStack().databaseUrl });
        await client.connect();
        try {
          const rows = (await client.query('SELECT event_id FROM documents.consumed_events WHERE event_id = $1', [cancelEvent.id])).rows;
          return rows.length === 1 ? rows : undefined;
        } finally {
          await client.end();
        }
      },
      { timeoutMs: 20_000, what: 'documents to apply the cancel' },
    );
    expect(consumed).toEqual([{ event_id: cancelEvent.id }]);
  });
});
