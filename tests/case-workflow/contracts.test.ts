import { ISO, Owner, ULID, expectApplied, expectProblem, expectViolations, movesOf, newCase, newPartner, query, simulate } from './support/kit';

let owner: Owner;
let stranger: Owner;

beforeAll(async () => {
  owner = await newPartner();
  stranger = await newPartner();
});

/** A finance_accepted case with a contract waiting for signing. */
async function caseWithContract(who: Owner = owner): Promise<{ caseId: string; quoteId: string; contractId: string }> {
  const { caseId, quoteId } = await newCase(who);
  await expectApplied(simulate(who, caseId, 'finance_accepted'));
  await expectApplied(simulate(who, caseId, 'wait_for_signing'));
  const [contract] = await query<{ id: string }>('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId]);
  return { caseId, quoteId, contractId: contract!.id };
}

const editNumber = (contractId: string, body: unknown, api = owner.api) => api.patch(`/api/contracts/${contractId}/edit-contract-number`, body);

describe('GET /api/contracts/{id}', () => {
  it('when the partner reads its contract, then number, place, case, quote and envelope are there', async () => {
    const { caseId, quoteId, contractId } = await caseWithContract();
    expect(contractId).toMatch(ULID);
    const response = await owner.api.get(`/api/contracts/${contractId}`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      '@id': `/api/contracts/${contractId}`,
      '@type': 'Contract',
      id: contractId,
      contractNumber: null,
      status: 'wait_for_signing',
      financingCaseId: caseId,
      quote: `/api/quotes/${quoteId}`,
      signatureEnvelope: null,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });

    await expectApplied(simulate(owner, caseId, 'signature_sent'));
    expect((await owner.api.get(`/api/contracts/${contractId}`)).json.signatureEnvelope).toEqual({
      id: expect.stringMatching(ULID),
      status: 'sent',
      recipients: [{ name: 'Erika Mustermann', email: 'erika@customer.example', role: 'customer' }],
    });
  });

  it('when the contract is created, then its creation is an event of the contract, from new', async () => {
    const { caseId, quoteId } = await caseWithContract();
    expect(await movesOf(caseId)).toEqual([
      'quote:new>in_progress:create:in_progress',
      'quote:in_progress>accepted_by_customer:accept_by_customer:accepted_by_customer',
      'quote:accepted_by_customer>finance_review:request_finance_review:finance_review',
      'quote:finance_review>finance_accepted:finance_accept:finance_accepted',
      'contract:new>wait_for_signing:create:finance_accepted',
    ]);
    expect(quoteId).toMatch(ULID);
  });

  it("when another partner's or an unknown contract is read, then 404", async () => {
    const { contractId } = await caseWithContract();
    expectProblem(await stranger.api.get(`/api/contracts/${contractId}`), 404, 'contract.not_found');
    expectProblem(await owner.api.get('/api/contracts/01JABCDEFGHJKMNPQRSTVWXYZ0'), 404, 'contract.not_found');
    expectProblem(await owner.api.get('/api/contracts/42'), 404);
  });
});

describe('PATCH /api/contracts/{id}/edit-contract-number', () => {
  it('when a valid number is set, then 200 with id and number, and the contract carries it; setting it again is fine', async () => {
    const { contractId } = await caseWithContract();
    const contractNumber = `RC-2026/${Date.now()}.a_b-c`;
    const response = await editNumber(contractId, { contractNumber });
    expect([response.status, response.json]).toEqual([200, { id: contractId, contractNumber }]);
    expect((await owner.api.get(`/api/contracts/${contractId}`)).json.contractNumber).toBe(contractNumber);
    expect((await editNumber(contractId, { contractNumber })).status).toBe(200);
    const changed = await editNumber(contractId, { contractNumber: `${contractNumber}-2` });
    expect(changed.json).toEqual({ id: contractId, contractNumber: `${contractNumber}-2` });
  });

  it('when another contract of the partner has the number, then 422 at contractNumber; another partner may use it', async () => {
    const first = await caseWithContract();
    const second = await caseWithContract();
    const contractNumber = `DUP-${Date.now()}`;
    expect((await editNumber(first.contractId, { contractNumber })).status).toBe(200);
    const taken = await editNumber(second.contractId, { contractNumber });
    expectViolations(taken, [['contractNumber', 'contract.number_taken']]);
    expect(taken.json.detail).toBe(`The contract number ${contractNumber} is already used by another contract of the partner.`);
    expect((await owner.api.get(`/api/contracts/${second.contractId}`)).json.contractNumber).toBeNull();

    const theirs = await caseWithContract(stranger);
    expect((await editNumber(theirs.contractId, { contractNumber }, stranger.api)).status).toBe(200);
  });

  it('when the number is missing, empty, too long, of a wrong type or has other characters, then 422 naming contractNumber', async () => {
    const { contractId } = await caseWithContract();
    expectViolations(await editNumber(contractId, {}), [['contractNumber', 'validation.required']]);
    expectViolations(await editNumber(contractId, { contractNumber: '' }), [['contractNumber', 'validation.too_small']]);
    expectViolations(await editNumber(contractId, { contractNumber: 'x'.repeat(65) }), [['contractNumber', 'validation.too_big']]);
    expectViolations(await editNumber(contractId, { contractNumber: 12345 }), [['contractNumber', 'validation.type']]);
    expectViolations(await editNumber(contractId, { contractNumber: 'RC 1' }), [['contractNumber', 'validation.format']]);
    expectViolations(await editNumber(contractId, { contractNumber: 'RC#1' }), [['contractNumber', 'validation.format']]);
    expect((await editNumber(contractId, { contractNumber: 'x'.repeat(64) })).status).toBe(200);
  });

  it('when the body is not JSON, then 400', async () => {
    const { contractId } = await caseWithContract();
    expectProblem(
      await owner.api.request('PATCH', `/api/contracts/${contractId}/edit-contract-number`, {
        rawBody: '{"contractNumber":',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
      'request.malformed_json',
    );
  });

  it('when another partner edits the contract, then 403 even with a bad body; an unknown contract is 404', async () => {
    const { contractId } = await caseWithContract();
    expectProblem(await editNumber(contractId, { contractNumber: 'MINE-1' }, stranger.api), 403, 'contract.forbidden');
    expectProblem(await editNumber(contractId, { contractNumber: '' }, stranger.api), 403, 'contract.forbidden');
    expect((await owner.api.get(`/api/contracts/${contractId}`)).json.contractNumber).toBeNull();
    expectProblem(await editNumber('01JABCDEFGHJKMNPQRSTVWXYZ0', { contractNumber: 'X-1' }), 404, 'contract.not_found');
  });
});
