/**
 * The customer's answer to a question: the customer view comes back with the question provided.
 */
import { ApiClient } from '@rental/testkit';
import { Owner, newPartner } from '../case-workflow/support/kit';
import { requestItems } from './support/customer-kit';
import { sentLink } from '../support/partner-requests';
import { sharedStack } from '../support/shared-stack';

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

describe("the customer's answer to a question", () => {
  it('when the customer answers, then 200 with the customer view, the question provided in it', async () => {
    const { caseId, token } = await sentLink(owner);
    const [item] = await requestItems(sharedStack(), owner.partner.id, caseId, 'information', [
      { label: 'Employees', category: 'other', question: 'How many employees?', targetAudience: 'customer' },
    ]);
    const customer = new ApiClient(sharedStack().gatewayUrl);

    const answered = await customer.post(`/customer/v1/quotes/${token}/information/${item?.id}/respond`, { response: 'Twelve' }, { key: null });

    expect(answered.status).toBe(200);
    expect(answered.json).toEqual((await customer.get(`/customer/v1/quotes/${token}`, { key: null })).json);
    expect(answered.json).toEqual(expect.objectContaining({ status: 'in_review', actions: ['accept', 'request_changes', 'reject'] }));
    expect(answered.json.requestedItems).toEqual([
      {
        id: item?.id,
        type: 'information',
        label: 'Employees',
        question: 'How many employees?',
        status: 'provided',
        category: 'other',
        optional: false,
        dueAt: null,
      },
    ]);
  });
});
