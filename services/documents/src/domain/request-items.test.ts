import { DomainError } from '@rental/problem';
import { sampleDocument, sampleRequestItem } from '../../test/samples';
import type { FinancingDocument, RequestItem } from './model';
import type { DocumentStore, ItemStore } from './ports';
import { MAX_CASES_PER_LIST, listRequestItemsJsonOfCases, listRequestItemsOfCases } from './request-items';

const item = (id: number, financingCaseId: string, overrides: Partial<RequestItem> = {}): RequestItem =>
  sampleRequestItem({ id, financingCaseId, label: `Item ${id}`, ...overrides });

/** A partner's upload that answers the requested item. */
const answer = (id: number, requestedItemId: number): FinancingDocument =>
  sampleDocument({
    id,
    financingCaseId: 'C1',
    originalName: 'offer.pdf',
    fileSize: 10,
    category: 'business_registration',
    uploadedAt: '2026-01-02T00:00:00.000Z',
    objectKey: `documents/${id}`,
    requestedItemId,
  });

/** Stores that answer like the repositories: items filtered by case and partner in the query, and how often each was read. */
function stores(items: RequestItem[], documents: FinancingDocument[]) {
  const reads = { items: 0, documents: 0 };
  const itemStore = {
    listByCasesOfPartner: async (ids: string[], partnerId: string) => {
      reads.items += 1;
      return items.filter((candidate) => ids.includes(candidate.financingCaseId) && candidate.partnerId === partnerId);
    },
  } as unknown as ItemStore;
  const documentStore = {
    listByItems: async (itemIds: number[]) => {
      reads.documents += 1;
      return documents.filter((document) => document.requestedItemId !== null && itemIds.includes(document.requestedItemId));
    },
  } as unknown as DocumentStore;
  return { reads, deps: { items: itemStore, documents: documentStore } };
}

describe('listRequestItemsOfCases', () => {
  it('when several cases are asked, then each gets its visible items with their answers, in two reads for all', async () => {
    const { reads, deps } = stores(
      [
        item(1, 'C1'),
        item(2, 'C2'),
        item(3, 'C1', { targetAudience: 'operator' }),
        item(4, 'C1', { internalOnly: true }),
        item(5, 'C2', { partnerId: 'beta' }),
      ],
      [answer(10, 1)],
    );

    const byCase = await listRequestItemsOfCases(deps, { financingCaseIds: ['C1', 'C2', 'C3'], context: { partnerId: 'acme' } });

    expect([...byCase.keys()]).toEqual(['C1', 'C2', 'C3']);
    expect(byCase.get('C1')?.map((view) => [view.item.id, view.responses.map((document) => document.id)])).toEqual([[1, [10]]]);
    expect(byCase.get('C2')?.map((view) => view.item.id)).toEqual([2]);
    expect(byCase.get('C3')).toEqual([]);
    expect(reads).toEqual({ items: 1, documents: 1 });
  });

  it('when the call names no partner, then invalid_input and nothing is read', async () => {
    const { reads, deps } = stores([item(1, 'C1')], []);

    const call = listRequestItemsOfCases(deps, { financingCaseIds: ['C1'], context: {} });

    await expect(call).rejects.toMatchObject({ kind: 'invalid_input', code: 'document_request.partner_required' });
    await expect(call).rejects.toBeInstanceOf(DomainError);
    expect(reads).toEqual({ items: 0, documents: 0 });
  });

  it(`when more than ${MAX_CASES_PER_LIST} cases are asked, then invalid_input`, async () => {
    const { deps } = stores([], []);
    const ids = Array.from({ length: MAX_CASES_PER_LIST + 1 }, (_, index) => `C${index}`);

    await expect(listRequestItemsOfCases(deps, { financingCaseIds: ids, context: { partnerId: 'acme' } })).rejects.toMatchObject({
      kind: 'invalid_input',
      code: 'document_request.too_many_cases',
    });
  });
});

describe('listRequestItemsJsonOfCases', () => {
  /** A store that records what it was asked; the scope itself is its query's (see the case list's integration test). */
  function jsonStore() {
    const asked: [string[], string][] = [];
    const items = {
      listJsonByCasesOfPartner: async (ids: string[], partnerId: string) => {
        asked.push([ids, partnerId]);
        return [{ financingCaseId: 'C1', listsJson: '{"requestedItems":[]}' }];
      },
    } as unknown as ItemStore;
    return { asked, deps: { items } };
  }

  it("when cases are asked, then the calling partner's lists of the distinct cases are read once and answered as read", async () => {
    const { asked, deps } = jsonStore();

    const lists = await listRequestItemsJsonOfCases(deps, { financingCaseIds: ['C1', 'C2', 'C1'], context: { partnerId: 'acme' } });

    expect(lists).toEqual([{ financingCaseId: 'C1', listsJson: '{"requestedItems":[]}' }]);
    expect(asked).toEqual([[['C1', 'C2'], 'acme']]);
  });

  it(`when the call names no partner or more than ${MAX_CASES_PER_LIST} cases, then invalid_input as for the lists of items, and nothing is read`, async () => {
    const { asked, deps } = jsonStore();
    const ids = Array.from({ length: MAX_CASES_PER_LIST + 1 }, (_, index) => `C${index}`);

    await expect(listRequestItemsJsonOfCases(deps, { financingCaseIds: ['C1'], context: {} })).rejects.toMatchObject({
      kind: 'invalid_input',
      code: 'document_request.partner_required',
    });
    await expect(listRequestItemsJsonOfCases(deps, { financingCaseIds: ids, context: { partnerId: 'acme' } })).rejects.toMatchObject({
      kind: 'invalid_input',
      code: 'document_request.too_many_cases',
    });
    expect(asked).toEqual([]);
  });
});
