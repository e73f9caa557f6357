import { notFound } from '@rental/problem';
import { readableCase } from './access';
import type { ContractDetails, FinancingCase, QuoteDetails, RequestedItem } from './model';
import type { CallContext, CaseStore, DocumentsPort } from './ports';

export interface CaseView {
  financingCase: FinancingCase;
  requestedItems: RequestedItem[];
}

export interface ReadDependencies {
  store: CaseStore;
  documents: DocumentsPort;
}

async function withItems(deps: ReadDependencies, financingCase: FinancingCase, context: CallContext): Promise<CaseView> {
  return { financingCase, requestedItems: await deps.documents.listRequestItems(financingCase.id, context) };
}

/** GET /api/financing_cases/{id}: the partner's case with the items the documents service holds for it. */
export async function readCase(deps: ReadDependencies, id: string, context: CallContext): Promise<CaseView> {
  const financingCase = readableCase(await deps.store.findCase(id), id, context.partnerId);
  return withItems(deps, financingCase, context);
}

/** GET /api/financing_cases: a page of the partner's cases, newest first. */
export async function listCases(deps: ReadDependencies, page: { limit: number; offset: number }, context: CallContext): Promise<CaseView[]> {
  const cases = await deps.store.listCases(context.partnerId, page.limit, page.offset);
  return Promise.all(cases.map((financingCase) => withItems(deps, financingCase, context)));
}

/** GET /api/quotes/{id}: another partner's quote is 404. */
export async function readQuote(store: CaseStore, id: string, partnerId: string): Promise<QuoteDetails> {
  const details = await store.findQuoteDetails(id);
  if (!details || details.quote.partnerId !== partnerId) throw notFound('quote.not_found', `No quote ${id}.`);
  return details;
}

export const contractNotFound = (id: string) => notFound('contract.not_found', `No contract ${id}.`);

/** GET /api/contracts/{id}: another partner's contract is 404. */
export async function readContract(store: CaseStore, id: string, partnerId: string): Promise<ContractDetails> {
  const details = await store.findContract(id);
  if (!details || details.contract.partnerId !== partnerId) throw contractNotFound(id);
  return details;
}

export interface CaseAccess {
  exists: boolean;
  partnerId: string;
  status: string;
  quoteId: string;
}

/** For other services' scope checks: whether the case exists and whose it is. */
export async function caseAccess(store: CaseStore, id: string): Promise<CaseAccess> {
  const financingCase = await store.findCase(id);
  if (!financingCase) return { exists: false, partnerId: '', status: '', quoteId: '' };
  return { exists: true, partnerId: financingCase.partnerId, status: financingCase.status, quoteId: financingCase.quoteId };
}

