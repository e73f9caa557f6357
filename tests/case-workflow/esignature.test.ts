import { GENERIC_MAILBOXES } from '@rental/case-workflow';
import { ISO, Owner, ULID, eventsOf, expectApplied, expectProblem, expectViolations, movesOf, newCase, newPartner, query, simulate } from './support/kit';

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

const start = (caseId: string, body: unknown, api = owner.api) => api.post(`/api/financing-cases/${caseId}/start-esignature`, body);
const anna = { firstName: 'Anna', lastName: 'Berg', email: 'anna.berg@customer.example' };
const ben = { firstName: 'Ben', lastName: 'Kurz', email: 'ben.kurz@customer.example' };

async function acceptedCase(): Promise<{ caseId: string; quoteId: string }> {
  const created = await newCase(owner);
  await expectApplied(simulate(owner, created.caseId, 'finance_accepted'));
  return created;
}

const person = (input: { firstName: string; lastName: string; email: string }, soloSigneePermitted: boolean) => ({
  id: expect.any(Number),
  ...input,
  confirmedByExternal: false,
  soloSigneePermitted,
  createdAt: expect.stringMatching(ISO),
  updatedAt: expect.stringMatching(ISO),
});

describe('POST /api/financing-cases/{financingCaseId}/start-esignature', () => {
  it('when two persons sign for an accepted case, then 200: they become authorized persons, a contract waits for signing and an envelope is sent to them', async () => {
    const { caseId, quoteId } = await acceptedCase();
    const response = await start(caseId, { authorizedPersons: [anna, ben] });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      financingCaseId: caseId,
      contractId: expect.stringMatching(ULID),
      envelopeId: expect.stringMatching(ULID),
      status: 'sent',
      authorizedPersons: [person(anna, false), person(ben, false)],
    });
    const contract = (await owner.api.get(`/api/contracts/${response.json.contractId}`)).json;
    expect(contract).toEqual(
      expect.objectContaining({
        status: 'wait_for_signing',
        signatureEnvelope: {
          id: response.json.envelopeId,
          status: 'sent',
          recipients: [
            { name: 'Anna Berg', email: anna.email, role: 'signer' },
            { name: 'Ben Kurz', email: ben.email, role: 'signer' },
          ],
        },
      }),
    );
    const quote = (await owner.api.get(`/api/quotes/${quoteId}`)).json;
    expect(quote.authorizedPersons).toEqual(response.json.authorizedPersons);
    expect(quote.contract).toBe(`/api/contracts/${response.json.contractId}`);
    expect((await movesOf(caseId)).slice(4)).toEqual(['contract:new>wait_for_signing:create:finance_accepted']);
  });

  it('when one person may sign alone, then one is enough', async () => {
    const { caseId } = await acceptedCase();
    const response = await start(caseId, { authorizedPersons: [{ ...anna, soloSigneePermitted: true }] });
    expect(response.status).toBe(200);
    expect(response.json.authorizedPersons).toEqual([person(anna, true)]);
  });

  it('when the signature is started again, then the persons are replaced and a new envelope is sent; the contract stays', async () => {
    const { caseId } = await acceptedCase();
    const first = await start(caseId, { authorizedPersons: [anna, ben] });
    const second = await start(caseId, { authorizedPersons: [{ ...ben, soloSigneePermitted: true }] });
    expect(second.status).toBe(200);
    expect(second.json.contractId).toBe(first.json.contractId);
    expect(second.json.envelopeId).not.toBe(first.json.envelopeId);
    expect(second.json.authorizedPersons).toEqual([person(ben, true)]);
    expect(await query('SELECT count(*)::int AS n FROM signature_envelopes WHERE contract_id = $1', [first.json.contractId])).toEqual([{ n: 1 }]);
    expect((await eventsOf(caseId)).filter((event) => event.data.resourceType === 'contract')).toHaveLength(1);
  });

  it.each(['in_progress', 'finance_review', 'finance_rejected'])('when the quote is %s, then 422: the quote must be finance_accepted', async (status) => {
    const { caseId } = await newCase(owner, { submitFinancing: status !== 'in_progress' });
    if (status === 'finance_rejected') await expectApplied(simulate(owner, caseId, 'finance_rejected'));
    const response = await start(caseId, { authorizedPersons: [anna, ben] });
    expectViolations(response, [['', 'esignature.quote_not_accepted']]);
    expect(response.json.detail).toBe(`The quote is ${status}; an e-signature can start only once it is finance_accepted.`);
    expect(await query('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId])).toEqual([]);
  });

  it("when a person gives a shared mailbox, then 422 at that person's email", async () => {
    const { caseId } = await acceptedCase();
    // Every listed mailbox, and one written in another case.
    for (const local of [...GENERIC_MAILBOXES, 'Info']) {
      const response = await start(caseId, { authorizedPersons: [anna, { ...ben, email: `${local}@customer.example` }] });
      expectViolations(response, [['authorizedPersons[1].email', 'esignature.generic_mailbox']]);
    }
    expect(await query('SELECT id FROM authorized_persons WHERE quote_id = (SELECT id FROM quotes WHERE financing_case_id = $1)', [caseId])).toEqual([]);
  });

  it('when a single person may not sign alone, then 422 at authorizedPersons', async () => {
    const { caseId } = await acceptedCase();
    const response = await start(caseId, { authorizedPersons: [anna] });
    expectViolations(response, [['authorizedPersons', 'esignature.signers_insufficient']]);
    expectViolations(await start(caseId, { authorizedPersons: [{ ...anna, soloSigneePermitted: false }] }), [
      ['authorizedPersons', 'esignature.signers_insufficient'],
    ]);
  });

  it('when the body breaks the schema, then 422 naming each field', async () => {
    const { caseId } = await acceptedCase();
    expectViolations(await start(caseId, {}), [['authorizedPersons', 'validation.required']]);
    expectViolations(await start(caseId, { authorizedPersons: [] }), [['authorizedPersons', 'validation.too_small']]);
    expectViolations(await start(caseId, { authorizedPersons: [{ firstName: 'Anna', email: 'not-an-address', soloSigneePermitted: 'yes' }] }), [
      ['authorizedPersons[0].lastName', 'validation.required'],
      ['authorizedPersons[0].email', 'validation.format'],
      ['authorizedPersons[0].soloSigneePermitted', 'validation.type'],
    ]);
  });

  it('when the body is not JSON, then 400', async () => {
    const { caseId } = await acceptedCase();
    expectProblem(
      await owner.api.request('POST', `/api/financing-cases/${caseId}/start-esignature`, { rawBody: '[{', headers: { 'Content-Type': 'application/json' } }),
      400,
    );
  });

  it('when the contract is already signed or its envelope signed, then 422', async () => {
    const signedContract = await acceptedCase();
    await expectApplied(simulate(owner, signedContract.caseId, 'signed'));
    expectViolations(await start(signedContract.caseId, { authorizedPersons: [anna, ben] }), [['', 'esignature.contract_not_waiting']]);

    const signedEnvelope = await acceptedCase();
    await expectApplied(simulate(owner, signedEnvelope.caseId, 'signature_signed'));
    expectViolations(await start(signedEnvelope.caseId, { authorizedPersons: [anna, ben] }), [['', 'esignature.already_signed']]);
  });

  it('when another partner starts it, then 403; an unknown case is 404', async () => {
    const { caseId } = await acceptedCase();
    const stranger = await newPartner();
    expectProblem(await start(caseId, { authorizedPersons: [anna, ben] }, stranger.api), 403, 'financing_case.forbidden');
    expectProblem(await start(caseId, {}, stranger.api), 403, 'financing_case.forbidden');
    expectProblem(await start('01JABCDEFGHJKMNPQRSTVWXYZ0', { authorizedPersons: [anna, ben] }), 404, 'financing_case.not_found');
    expect(await query('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId])).toEqual([]);
  });
});
