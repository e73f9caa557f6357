import { buffer } from 'node:stream/consumers';
import { type ProblemCode, choiceViolation, invalidInput, notFound, ruleViolation, validationFailed, Violation } from '@rental/problem';
import { requireCase } from './case-scope';
import type { DocumentsDependencies } from './documents';
import { FinancingDocument, ITEM_TYPES, RequestItem, itemState } from './model';
import type { OperatorFiles } from './ports';
import { rejectDocument } from './sandbox';
import type { CallbackRequestView, OpenItemCount } from './model';

/**
 * The approval team's operations on what documents owns: every item and document of a case,
 * reviews, callback requests and the document side of the transmission to the lender. The
 * back office checks the operator's roles before it calls.
 */

export interface ItemReference {
  type: string;
  id: number;
}

export type OperatorDependencies = DocumentsDependencies & { operator: OperatorFiles };

export interface CaseFilesView {
  items: { item: RequestItem; responses: FinancingDocument[] }[];
  documents: FinancingDocument[];
}

const rule = (code: ProblemCode, message: string, propertyPath = '') => ruleViolation(code, message, [{ propertyPath, code, message }]);

/** Every requested item (all audiences) and every document of the case. */
export async function caseFiles(deps: OperatorDependencies, financingCaseId: string): Promise<CaseFilesView> {
  const access = await requireCase(deps.cases, financingCaseId, {});
  const [items, documents] = await Promise.all([
    deps.items.listByCasesOfPartner([financingCaseId], access.partnerId),
    deps.documents.listByCase(financingCaseId),
  ]);
  return {
    items: items.map((item) => ({ item, responses: documents.filter((document) => document.requestedItemId === item.id) })),
    documents,
  };
}

export async function openItemCounts(
  deps: OperatorDependencies,
  input: { financingCaseIds: string[]; listOverdueCases: boolean },
): Promise<{ counts: OpenItemCount[]; overdueCaseIds: string[] }> {
  const now = deps.now().toISOString();
  const [counts, overdueCaseIds] = await Promise.all([
    deps.operator.countOpenItems([...new Set(input.financingCaseIds)], now),
    input.listOverdueCases ? deps.operator.overdueCaseIds(now) : Promise.resolve([]),
  ]);
  return { counts, overdueCaseIds };
}

const REVIEW_OUTCOMES = ['VERIFIED', 'REJECTED'] as const;

export interface ReviewOutcome {
  document: FinancingDocument;
  item: RequestItem | null;
}

/**
 * POST /ops/v1/documents/{id}/review: only a PENDING_REVIEW document. REJECTED is the sandbox's
 * rejection (the request reopens: pending, editable); VERIFIED accepts the request.
 */
export async function reviewDocument(deps: OperatorDependencies, input: { documentId: number; status: string; reason: string | null }): Promise<ReviewOutcome> {
  if (!(REVIEW_OUTCOMES as readonly string[]).includes(input.status)) {
    throw validationFailed([choiceViolation('status', REVIEW_OUTCOMES)]);
  }
  const document = await deps.documents.find(input.documentId);
  if (!document) throw notFound('document.not_found', `No document ${input.documentId}.`);
  const notReviewable = () =>
    rule(
      'document.not_reviewable',
      `Document ${document.id} is ${document.reviewStatus ?? 'without review status'}; only a PENDING_REVIEW document can be reviewed.`,
      'status',
    );
  if (document.reviewStatus !== 'PENDING_REVIEW') throw notReviewable();
  let reviewed: FinancingDocument;
  if (input.status === 'REJECTED') {
    try {
      reviewed = (await rejectDocument(deps, { financingCaseId: document.financingCaseId, documentId: document.id, reason: input.reason ?? '', context: {} }))
        .document;
    } catch (error) {
      if ((error as { code?: string }).code === 'document.not_rejectable') throw notReviewable();
      throw error;
    }
  } else {
    const verified = await deps.operator.verify(document.id, deps.now().toISOString());
    if (!verified) throw notReviewable();
    reviewed = verified;
  }
  const item = reviewed.requestedItemId !== null ? ((await deps.items.find(reviewed.requestedItemId)) ?? null) : null;
  return { document: reviewed, item };
}

/** GET /ops/v1/documents/{id}/download: any document of any case, bytes as stored. */
export async function openAnyDocument(deps: OperatorDependencies, documentId: number): Promise<{ document: FinancingDocument; content: Buffer }> {
  const document = await deps.documents.find(documentId);
  if (!document) throw notFound('document.not_found', `No document ${documentId}.`);
  return { document, content: await buffer(await deps.storage.get(document.objectKey)) };
}

/** The items of the case the references name; an unknown one is a 422 naming its place in the list. */
async function referencedItems(
  deps: OperatorDependencies,
  financingCaseId: string,
  references: ItemReference[],
): Promise<{ partnerId: string; items: RequestItem[] }> {
  const access = await requireCase(deps.cases, financingCaseId, {});
  if (references.length === 0) throw validationFailed([{ propertyPath: 'items', code: 'validation.too_small', message: 'At least one item is required.' }]);
  const items = await deps.items.listByCasesOfPartner([financingCaseId], access.partnerId);
  const violations: Violation[] = [];
  const found = references.map((reference, index) => {
    const item = items.find((candidate) => candidate.id === reference.id && candidate.itemType === reference.type);
    if (!(ITEM_TYPES as readonly string[]).includes(reference.type)) violations.push(choiceViolation(`items[${index}].type`, ITEM_TYPES));
    else if (!item)
      violations.push({
        propertyPath: `items[${index}].id`,
        code: 'document_request.not_found',
        message: `No ${reference.type} request ${reference.id} on this financing case.`,
      });
    return item;
  });
  if (violations.length > 0) throw ruleViolation('document_request.not_found', 'Some of the items are not requests of this financing case.', violations);
  return { partnerId: access.partnerId, items: [...new Map(found.map((item) => [(item as RequestItem).id, item as RequestItem])).values()] };
}

/** POST /ops/v1/cases/{id}/callback-requests: the items get an open callback request. */
export async function createCallbackRequest(
  deps: OperatorDependencies,
  input: { financingCaseId: string; items: ItemReference[]; note: string | null },
): Promise<CallbackRequestView> {
  const { partnerId, items } = await referencedItems(deps, input.financingCaseId, input.items);
  return deps.operator.createCallbackRequest(
    input.financingCaseId,
    partnerId,
    items.map((item) => item.id),
    input.note,
    deps.now().toISOString(),
  );
}

/** POST /ops/v1/callback-requests/{id}/close */
export async function closeCallbackRequest(deps: OperatorDependencies, id: number): Promise<CallbackRequestView> {
  const existing = await deps.operator.findCallbackRequest(id);
  if (!existing) throw notFound('callback_request.not_found', `No callback request ${id}.`);
  if (existing.status === 'closed') throw rule('callback_request.closed', `The callback request ${id} is closed already.`);
  const closed = await deps.operator.closeCallbackRequest(id, deps.now().toISOString());
  if (!closed) throw rule('callback_request.closed', `The callback request ${id} is closed already.`);
  return closed;
}

export interface TransmittedItem {
  item: RequestItem;
  answer: string | null;
  documents: { fileName: string; mimeType: string; content: Buffer }[];
}

/**
 * The transmission's content: verified documents of document and fill-and-return items, answers
 * of information items. An item with nothing to send, or sent already, is a 422 naming it.
 */
export async function collectTransmission(deps: OperatorDependencies, input: { financingCaseId: string; items: ItemReference[] }): Promise<TransmittedItem[]> {
  const { items } = await referencedItems(deps, input.financingCaseId, input.items);
  const documents = await deps.documents.listByItems(items.map((item) => item.id));
  const violations: Violation[] = [];
  const prepared = items.map((item) => {
    const verified = documents.filter((document) => document.requestedItemId === item.id && document.reviewStatus === 'VERIFIED');
    const state = itemState(
      item,
      documents.filter((document) => document.requestedItemId === item.id),
    );
    const sendable = item.transmittedToLenderAt === null && (item.itemType === 'information' ? state.transmittableToLender : verified.length > 0);
    if (!sendable) {
      const index = input.items.findIndex((reference) => reference.id === item.id && reference.type === item.itemType);
      violations.push({
        propertyPath: `items[${index}]`,
        code: 'document_request.not_transmittable',
        message: `The ${item.itemType} request ${item.id} has no ${item.itemType === 'information' ? 'answer' : 'verified document'} to send, or was sent already.`,
      });
    }
    return { item, verified };
  });
  if (violations.length > 0) throw ruleViolation('document_request.not_transmittable', 'Some of the items have nothing to send to the lender.', violations);
  return Promise.all(
    prepared.map(async ({ item, verified }) => ({
      item,
      answer: item.itemType === 'information' ? item.response : null,
      documents: await Promise.all(
        verified.map(async (document) => ({
          fileName: document.originalName,
          mimeType: document.mimeType,
          content: await buffer(await deps.storage.get(document.objectKey)),
        })),
      ),
    })),
  );
}

/** After the lender took them: the items are sent, with the time. */
export async function markTransmitted(deps: OperatorDependencies, input: { financingCaseId: string; items: ItemReference[] }): Promise<RequestItem[]> {
  const { items } = await referencedItems(deps, input.financingCaseId, input.items);
  if (items.some((item) => item.transmittedToLenderAt !== null))
    throw invalidInput('document_request.sent_already', 'Some of the items were sent to the lender already.');
  return deps.operator.markTransmitted(
    items.map((item) => item.id),
    deps.now().toISOString(),
  );
}
