/**
 * Quote requests: the fields of a filed one and their own statuses (new → quote_created → canceled)
 * with one status event per move.
 */
import { waitFor } from '@rental/testkit';
import { EventListener, Owner, expectApplied, newPartner, simulate } from '../case-workflow/support/kit';
import { filedQuoteRequest } from '../support/partner-requests';

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

describe('fields of a filed quote request', () => {
  it('when a quote request is filed, then currentSolvencyStatus is the string not_checked', async () => {
    expect((await filedQuoteRequest(owner.api)).json.currentSolvencyStatus).toBe('not_checked');
  });
});

describe('quote requests move through their own statuses', () => {
  let listener: EventListener;
  beforeAll(async () => {
    listener = await EventListener.start();
  });
  afterAll(() => listener.close());

  it('when a quote request is filed and its quote later canceled, then it goes new → quote_created → canceled with one event per move', async () => {
    const filed = await filedQuoteRequest(owner.api);
    expect(filed.json.status).toBe('quote_created');
    const caseId = (filed.json.financingCase as string).split('/').pop() as string;
    const quoteId = (filed.json.quote as string).split('/').pop() as string;
    const created = await waitFor(() => listener.of(caseId).find((event) => event.data.resourceType === 'quote_request'), { what: 'the quote request event' });
    expect(created.data).toEqual({
      financingCaseId: caseId,
      quoteId,
      resourceType: 'quote_request',
      fromStatus: 'new',
      toStatus: 'quote_created',
      status: 'in_progress',
      transition: 'create_quote',
    });
    expect(created.partnerId).toBe(owner.partner.id);

    await expectApplied(simulate(owner, caseId, 'finance_review'));
    await expectApplied(owner.api.post(`/api/financing_cases/${caseId}/cancel`));
    const canceled = await waitFor(
      () => listener.of(caseId).find((event) => event.data.resourceType === 'quote_request' && event.data.toStatus === 'canceled'),
      { what: 'the quote request cancel event' },
    );
    expect(canceled.data).toEqual({
      financingCaseId: caseId,
      quoteId,
      resourceType: 'quote_request',
      fromStatus: 'quote_created',
      toStatus: 'canceled',
      status: 'canceled',
      transition: 'cancel',
    });
    const quoteCanceled = listener.of(caseId).find((event) => event.data.resourceType === 'quote' && event.data.toStatus === 'canceled');
    expect(Date.parse(canceled.occurredAt)).toBeGreaterThan(Date.parse(quoteCanceled!.occurredAt));
    expect((await owner.api.get(`/api/quote_requests/${filed.json.id}`)).json.status).toBe('canceled');
    expect(listener.of(caseId).filter((event) => event.data.resourceType === 'quote_request')).toHaveLength(2);
  });
});
