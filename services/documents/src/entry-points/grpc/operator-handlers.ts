import type { UnaryUseCases } from '@rental/grpc';
import type { documents } from '@rental/proto';
import { FinancingDocument, itemState } from '../../domain/model';
import {
  OperatorDependencies,
  caseFiles,
  closeCallbackRequest,
  collectTransmission,
  createCallbackRequest,
  markTransmitted,
  openAnyDocument,
  openItemCounts,
  reviewDocument,
} from '../../domain/operator';
import type { TransmittedItem } from '../../domain/operator';
import type { CallbackRequestView } from '../../domain/model';
import type { RequestItemView } from '../../domain/request-items';
import { documentFile } from '../http/presenters';

/** A document as the approval team sees it: with its review and who uploaded it. */
function presentOpsDocument(document: FinancingDocument) {
  return {
    ...documentFile(document),
    description: document.description,
    uploadedAt: document.uploadedAt,
    uploadedBy: document.uploadedBy,
    reviewStatus: document.reviewStatus,
    rejectionReason: document.rejectionReason,
    requestedItemId: document.requestedItemId,
    internalOnly: document.internalOnly,
    downloadUrl: `/ops/v1/documents/${document.id}/download`,
  };
}

/** A requested item of any audience, with the documents that answered it. */
function presentOpsItem({ item, responses }: RequestItemView) {
  const state = itemState(item, responses);
  return {
    id: item.id,
    type: item.itemType,
    label: item.label,
    category: item.category,
    status: item.status,
    targetAudience: item.targetAudience,
    optional: item.optional,
    question: item.question,
    response: item.response,
    requestedAt: item.requestedAt,
    dueAt: item.dueAt,
    providedAt: item.providedAt,
    transmittedToLenderAt: item.transmittedToLenderAt,
    callbackRequestId: item.callbackRequestId,
    callbackStatus: item.callbackStatus ?? 'none',
    templateFileName: item.template?.fileName ?? null,
    transmittableToLender: state.transmittableToLender,
    reviewable: state.reviewable,
    documentIds: responses.map((document) => document.id),
  };
}

const callbackMessage = (view: CallbackRequestView): documents.CallbackRequest => ({
  id: view.id,
  financingCaseId: view.financingCaseId,
  status: view.status,
  note: view.note ?? '',
  createdAt: view.createdAt,
  closedAt: view.closedAt ?? '',
  items: view.items,
});

/** An item of the lender transmission; one still to send has no transmittedToLenderAt yet (''). */
const transmittedItemMessage = ({ item, answer, documents: files }: TransmittedItem): documents.TransmittedItem => ({
  id: item.id,
  type: item.itemType,
  label: item.label,
  category: item.category,
  answer: answer ?? '',
  documents: files,
  transmittedToLenderAt: item.transmittedToLenderAt ?? '',
});

/** The calls of the back office; each adapts one use case of ../../domain/operator. */
export function operatorUseCases(
  deps: OperatorDependencies,
): Pick<
  UnaryUseCases<documents.DocumentsServiceHandlers>,
  | 'GetCaseFiles'
  | 'CountOpenItems'
  | 'ReviewDocument'
  | 'OpenDocument'
  | 'CreateCallbackRequest'
  | 'CloseCallbackRequest'
  | 'CollectTransmission'
  | 'MarkTransmitted'
> {
  return {
    GetCaseFiles: async (request) => {
      const files = await caseFiles(deps, request.financingCaseId);
      return { itemsJson: JSON.stringify(files.items.map(presentOpsItem)), documentsJson: JSON.stringify(files.documents.map(presentOpsDocument)) };
    },
    CountOpenItems: async (request) => {
      const { counts, overdueCaseIds } = await openItemCounts(deps, { financingCaseIds: request.financingCaseIds, listOverdueCases: request.listOverdueCases });
      return { cases: counts, overdueCaseIds };
    },
    ReviewDocument: async (request) => {
      const { document, item } = await reviewDocument(deps, { documentId: request.documentId, status: request.status, reason: request.reason || null });
      return {
        documentId: document.id,
        financingCaseId: document.financingCaseId,
        partnerId: document.partnerId,
        itemId: item?.id ?? 0,
        itemLabel: item?.label ?? '',
        originalName: document.originalName,
      };
    },
    OpenDocument: async (request) => {
      const { document, content } = await openAnyDocument(deps, request.documentId);
      return { documentId: document.id, financingCaseId: document.financingCaseId, originalName: document.originalName, mimeType: document.mimeType, content };
    },
    CreateCallbackRequest: async (request) =>
      callbackMessage(await createCallbackRequest(deps, { financingCaseId: request.financingCaseId, items: request.items, note: request.note || null })),
    CloseCallbackRequest: async (request) => callbackMessage(await closeCallbackRequest(deps, request.callbackRequestId)),
    CollectTransmission: async (request) => {
      const items = await collectTransmission(deps, { financingCaseId: request.financingCaseId, items: request.items });
      return { items: items.map(transmittedItemMessage) };
    },
    MarkTransmitted: async (request) => {
      const items = await markTransmitted(deps, { financingCaseId: request.financingCaseId, items: request.items });
      return { items: items.map((item) => transmittedItemMessage({ item, answer: item.response, documents: [] })) };
    },
  };
}
