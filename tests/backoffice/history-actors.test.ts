import { ApiClient } from '@rental/testkit';
import { quoteInProgress, tokenOf } from '../customer/support/customer-kit';
import { Ops, consoleToken, newCase, newPartner, operatorWith, sharedStack } from './support/kit';

interface HistoryEntry {
  actor: { type: string; id: string | null; name: string | null };
  action: string;
  reason: string | null;
  details: Record<string, unknown> | null;
}

const historyOf = async (caseId: string) => (await (await Ops.as('viewer')).get(`/ops/v1/cases/${caseId}`)).json.history as HistoryEntry[];

describe('who the case history names', () => {
  it('when one operator acts through client credentials and through the console, then both entries name the fixture operator id', async () => {
    const owner = await newPartner();
    const { caseId } = await newCase(owner, { submitFinancing: false });
    const anna = operatorWith('approver');
    const program = await Ops.as('approver');
    const viaConsole = new Ops(await consoleToken('approver'));

    const byProgram = await program.post(`/ops/v1/cases/${caseId}/notes`, { text: 'Through the API' });
    const byConsole = await viaConsole.post(`/ops/v1/cases/${caseId}/notes`, { text: 'Through the console' });

    const operator = { type: 'operator', id: anna.id, name: anna.name };
    expect([byProgram.status, byProgram.json.author, byConsole.status, byConsole.json.author]).toEqual([201, operator, 201, operator]);
    expect(anna.id).toBe('op-anna');
    expect((await historyOf(caseId)).filter((entry) => entry.action === 'note').map((entry) => [entry.actor, entry.details?.text])).toEqual([
      [operator, 'Through the API'],
      [operator, 'Through the console'],
    ]);
  });

  it('when a partner moves its case, then the history names the partner by its name', async () => {
    const owner = await newPartner();
    const { caseId } = await newCase(owner, { submitFinancing: false });

    const partnerEntries = (await historyOf(caseId)).filter((entry) => entry.actor.type === 'partner');

    expect(partnerEntries.length).toBeGreaterThan(0);
    expect(partnerEntries.map((entry) => entry.actor)).toEqual(partnerEntries.map(() => ({ type: 'partner', id: owner.partner.id, name: owner.partner.name })));
  });

  it("when the customer asks for changes, then the customer's text is the reason of that entry", async () => {
    const owner = await newPartner();
    const { caseId } = await quoteInProgress(owner, sharedStack());
    const sent = await owner.api.post(`/api/financing_cases/${caseId}/send-to-customer`, {});
    const customer = new ApiClient(sharedStack().gatewayUrl);

    const answered = await customer.post(`/customer/v1/quotes/${tokenOf(sent.json.customerUrl)}/feedback`, {
      action: 'request_changes',
      text: '  Please 48 months instead.  ',
    });

    expect([sent.status, answered.status]).toEqual([200, 200]);
    expect((await historyOf(caseId)).filter((entry) => entry.action === 'request_changes')).toEqual([
      expect.objectContaining({ actor: { type: 'customer', id: null, name: null }, action: 'request_changes', reason: 'Please 48 months instead.' }),
    ]);
  });
});
