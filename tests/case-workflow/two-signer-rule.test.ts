/**
 * The two-signer rule of start-esignature counts persons, not entries of authorizedPersons.
 */
import { Owner, expectApplied, expectViolations, newCase, newPartner, query, simulate } from './support/kit';

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

describe('the two-signer rule counts persons', () => {
  const anna = { firstName: 'Anna', lastName: 'Berg', email: 'anna.berg@customer.example' };

  async function acceptedCase(): Promise<string> {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    return caseId;
  }

  it.each([
    ['the same mailbox in other case with a +tag', { firstName: 'A.', lastName: 'Berg-Sign', email: 'ANNA.BERG+sign@Customer.Example' }],
    ['the same first and last name', { firstName: ' anna', lastName: 'BERG ', email: 'a.berg@other.example' }],
  ])('when the same person is named twice (%s) without soloSigneePermitted, then 422 naming the duplicate and nothing starts', async (_how, twin) => {
    const caseId = await acceptedCase();
    const response = await owner.api.post(`/api/financing-cases/${caseId}/start-esignature`, { authorizedPersons: [anna, twin] });
    expectViolations(response, [
      ['authorizedPersons[1]', 'esignature.duplicate_person'],
      ['authorizedPersons', 'esignature.signers_insufficient'],
    ]);
    expect(response.json.violations[0].message).toBe(
      `${twin.firstName.trim()} ${twin.lastName.trim()} <${twin.email}> is the same person as authorizedPersons[0]; each signer counts once.`,
    );
    expect(await query('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId])).toEqual([]);
  });
});
