import { notFound } from '@rental/problem';
import { readableCase } from '../shared/access';
import type { ContractDetails, FinancingCase, QuoteDetails, RequestedItem } from '../shared/model';
import type { CallContext, DocumentsPort } from '../shared/ports';
import type { CaseJson, CaseReads } from './ports';

export interface CaseView {
  financingCase: FinancingCase;
  requestedItems: RequestedItem[];
}

export interface ReadDependencies {
  store: CaseReads;
  documents: DocumentsPort;
}

/**
 * GET /api/financing_cases/{id}: the partner's case with the items the documents service holds
 * for it, which documents answers without asking case-workflow back whose case it is.
 */
export async function readCase(deps: ReadDependencies, id: string, context: CallContext): Promise<CaseView> {
  const financingCase = readableCase(await deps.store.findCase(id), id, context.partnerId);
  const items = await deps.documents.listRequestItemsOfCases([financingCase.id], context);
  return { financingCase, requestedItems: items.get(financingCase.id) ?? [] };
}

export interface CaseJsonView {
  financingCase: CaseJson;
  /** The case's four item lists as one JSON object (documents' answer); undefined: the case has no items. */
  requestedItems: string | undefined;
}

/**
 * GET /api/financing_cases: a page of the partner's cases, newest first, as JSON the two
 * databases built (the busiest read: no object per case or item is built, nor encoded).
 */
export async function listCases(deps: ReadDependencies, page: { limit: number; offset: number }, context: CallContext): Promise<CaseJsonView[]> {
  const cases = await deps.store.listCases(context.partnerId, page.limit, page.offset);
  const items = await deps.documents.listRequestItemsJsonOfCases(
    cases.map((financingCase) => financingCase.id),
    context,
  );
  return cases.map((financingCase) => ({ financingCase, requestedItems: items.get(financingCase.id) }));
}

/** GET /api/quotes/{id}: another partner's quote is 404. */
export async function readQuote(store: CaseReads, id: string, partnerId: string): Promise<QuoteDetails> {
  const details = await store.findQuoteDetails(id);
  if (!details || details.quote.partnerId !== partnerId) throw notFound('quote.not_found', `No quote ${id}.`);
  return details;
}

export const contractNotFound = (id: string) => notFound('contract.not_found', `No contract ${id}.`);

/** GET /api/contracts/{id}: another partner's contract is 404. */
export async function readContract(store: CaseReads, id: string, partnerId: string): Promise<ContractDetails> {
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
export async function caseAccess(store: CaseReads, id: string): Promise<CaseAccess> {
  const financingCase = await store.findCase(id);
  if (!financingCase) return { exists: false, partnerId: '', status: '', quoteId: '' };
  return { exists: true, partnerId: financingCase.partnerId, status: financingCase.status, quoteId: financingCase.quoteId };
}
