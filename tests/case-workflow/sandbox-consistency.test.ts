/**
 * The sandbox's scenarios move a case only as the production transitions do.
 */
import { Owner, eventsOf, expectApplied, expectProblem, expectViolations, movesOf, newCase, newPartner, query, simulate } from './support/kit';

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

describe('sandbox consistency', () => {
  it('when the quote is finance_rejected, then simulate finance_accepted is 422 as finance-decision accepted is, and nothing moves', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_rejected'));
    const before = (await eventsOf(caseId)).length;
    expectViolations(await simulate(owner, caseId, 'finance_accepted'), [['scenario', 'sandbox.transition_unreachable']]);
    expectProblem(await owner.api.post(`/api/sandbox/financing_cases/${caseId}/finance-decision`, { decision: 'accepted' }), 422);
    expect(await eventsOf(caseId)).toHaveLength(before);
  });

  it.each(['wait_for_signing', 'signed', 'completed', 'signature_sent', 'signature_signed', 'signature_declined'])(
    'when %s runs for a quote never accepted, then 422 and no contract is made',
    async (scenario) => {
      const rejected = await newCase(owner);
      await expectApplied(simulate(owner, rejected.caseId, 'finance_rejected'));
      const inReview = await newCase(owner);
      for (const caseId of [rejected.caseId, inReview.caseId]) {
        const response = await simulate(owner, caseId, scenario);
        if (scenario === 'completed') expectViolations(response, [['scenario', 'contract.number_missing']]);
        else expectViolations(response, [['scenario', 'sandbox.quote_not_accepted']]);
        expect(await query('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId])).toEqual([]);
      }
    },
  );

  it('when a reset removes the contract, then a contract event says so (toStatus removed, transition reset)', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, caseId, 'wait_for_signing'));
    const before = (await movesOf(caseId)).length;
    await expectApplied(simulate(owner, caseId, 'reset', { targetStatus: 'finance_rejected' }));
    expect((await movesOf(caseId)).slice(before)).toEqual([
      'contract:wait_for_signing>removed:reset:finance_accepted',
      'quote:finance_accepted>finance_rejected:reset:finance_rejected',
    ]);
    expect(await query('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId])).toEqual([]);
  });
});

describe('the sandbox scenario completed', () => {
  it("when the contract completes in the sandbox, then the quote completes with its complete event, as the approval team's transition does in production", async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, caseId, 'signed'));
    const [contract] = await query<{ id: string }>('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId]);
    expect((await owner.api.patch(`/api/contracts/${contract?.id}/edit-contract-number`, { contractNumber: `C30-${caseId}` })).status).toBe(200);

    await expectApplied(simulate(owner, caseId, 'completed'));

    expect((await movesOf(caseId)).slice(-2)).toEqual([
      'contract:invoice_checked>completed:complete:finance_accepted',
      'quote:finance_accepted>completed:complete:completed',
    ]);
    expect((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status).toBe('completed');
    expectProblem(await simulate(owner, caseId, 'finance_rejected'), 422);
  });
});
