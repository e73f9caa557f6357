import { unaryHandler } from '@rental/grpc';
import type { Logger } from '@rental/logger';
import type { documents } from '@rental/proto';
import { mapDatabaseError } from '@rental/service-host';
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

/** The calls of the back office; each adapts one use case of ../../domain/operator. */
export function operatorHandlers(
  deps: OperatorDependencies,
  log: Logger,
): Pick<
  documents.DocumentsServiceHandlers,
  | 'GetCaseFiles'
  | 'CountOpenItems'
  | 'ReviewDocument'
  | 'OpenDocument'
  | 'CreateCallbackRequest'
  | 'CloseCallbackRequest'
  | 'CollectTransmission'
  | 'MarkTransmitted'
> {
  const mappers = [mapDatabaseError];
  return {
    GetCaseFiles: unaryHandler<documents.GetCaseFilesRequest__Output, documents.CaseFiles>('GetCaseFiles', log, mappers, async (request) => {
      const files = await caseFiles(deps, request.financingCaseId);
      return { itemsJson: JSON.stringify(files.items.map(presentOpsItem)), documentsJson: JSON.stringify(files.documents.map(presentOpsDocument)) };
    }),
    CountOpenItems: unaryHandler<documents.CountOpenItemsRequest__Output, documents.OpenItemCounts>('CountOpenItems', log, mappers, async (request) => {
      const { counts, overdueCaseIds } = await openItemCounts(deps, { financingCaseIds: request.financingCaseIds, listOverdueCases: request.listOverdueCases });
      return { cases: counts, overdueCaseIds };
    }),
    ReviewDocument: unaryHandler<documents.ReviewDocumentRequest__Output, documents.ReviewDocumentResponse>('ReviewDocument', log, mappers, async (request) => {
      const { document, item } = await reviewDocument(deps, { documentId: request.documentId, status: request.status, reason: request.reason || null });
      return {
        documentId: document.id,
        financingCaseId: document.financingCaseId,
        partnerId: document.partnerId,
        itemId: item?.id ?? 0,
        itemLabel: item?.label ?? '',
        originalName: document.originalName,
      };
    }),
    OpenDocument: unaryHandler<documents.OpenDocumentRequest__Output, documents.DocumentContent>('OpenDocument', log, mappers, async (request) => {
      const { document, content } = await openAnyDocument(deps, request.documentId);
      return { documentId: document.id, financingCaseId: document.financingCaseId, originalName: document.originalName, mimeType: document.mimeType, content };
    }),
    CreateCallbackRequest: unaryHandler<documents.CreateCallbackRequestRequest__Output, documents.CallbackRequest>(
      'CreateCallbackRequest',
      log,
      mappers,
      async (request) =>
        callbackMessage(await createCallbackRequest(deps, { financingCaseId: request.financingCaseId, items: request.items, note: request.note || null })),
    ),
    CloseCallbackRequest: unaryHandler<documents.CloseCallbackRequestRequest__Output, documents.CallbackRequest>(
      'CloseCallbackRequest',
      log,
      mappers,
      async (request) => callbackMessage(await closeCallbackRequest(deps, request.callbackRequestId)),
    ),
    CollectTransmission: unaryHandler<documents.TransmissionRequest__Output, documents.Transmission>('CollectTransmission', log, mappers, async (request) => {
      const items = await collectTransmission(deps, { financingCaseId: request.financingCaseId, items: request.items });
      return {
        items: items.map(({ item, answer, documents: files }) => ({
          id: item.id,
          type: item.itemType,
          label: item.label,
          category: item.category,
          answer: answer ?? '',
          documents: files,
          transmittedToLenderAt: '',
        })),
      };
    }),
    MarkTransmitted: unaryHandler<documents.TransmissionRequest__Output, documents.Transmission>('MarkTransmitted', log, mappers, async (request) => {
      const items = await markTransmitted(deps, { financingCaseId: request.financingCaseId, items: request.items });
      return {
        items: items.map((item) => ({
          id: item.id,
          type: item.itemType,
          label: item.label,
          category: item.category,
          answer: item.response ?? '',
          documents: [],
          transmittedToLenderAt: item.transmittedToLenderAt ?? '',
        })),
      };
    }),
  };
}
