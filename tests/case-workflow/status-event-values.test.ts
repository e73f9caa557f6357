/**
 * The value sets of the status event: what the API description says and what a contract's event carries.
 */
import { Owner, expectApplied, movesOf, newCase, newPartner, simulate } from './support/kit';
import { apiAs } from '../support/shared-stack';

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

describe('the value sets of the status event', () => {
  it("when the API description is read, then the event says fromStatus is new on creation, lists the contract places and says data.status is the case's", async () => {
    const data = (await apiAs().get('/api/docs.json')).json.components.schemas.FinancingCaseStatusChangedEvent.properties.data.properties;
    expect(data.fromStatus.description).toContain('"new" when the quote, contract or quote request was just created');
    expect(data.fromStatus.description).toContain(
      'for contract a contract place (wait_for_signing, signed, post_processing_required, delivery_approved, invoice_checked, completed, canceled)',
    );
    expect(data.fromStatus.description).toContain('for quote_request a quote request status (new, quote_created, canceled)');
    expect(data.toStatus.description).toContain('toStatus removed');
    expect(data.status.description).toContain('a contract event carries the contract place in fromStatus/toStatus and the case status here');
  });

  it('when a contract is created, then its event carries fromStatus new, the place in toStatus and the case status in data.status', async () => {
    const { caseId } = await newCase(owner);
    await expectApplied(simulate(owner, caseId, 'finance_accepted'));
    await expectApplied(simulate(owner, caseId, 'wait_for_signing'));
    expect((await movesOf(caseId)).filter((move) => move.startsWith('contract:'))).toEqual(['contract:new>wait_for_signing:create:finance_accepted']);
  });
});
