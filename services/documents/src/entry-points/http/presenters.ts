import { FinancingDocument, isActiveResponse, isTransmittableResponse, isVisibleToPartner, itemState, templateDownloadPath } from '../../domain/model';
import type { RequestItemView } from '../../domain/request-items';

export const documentPath = (id: number) => `/api/documents/${id}`;

/** What every reader of a document sees first, the partner and the approval team alike. */
export function documentFile(document: FinancingDocument) {
  return {
    id: document.id,
    financingCaseId: document.financingCaseId,
    originalName: document.originalName,
    mimeType: document.mimeType,
    fileSize: document.fileSize,
    category: document.category,
  };
}

export function presentDocument(document: FinancingDocument) {
  return {
    '@id': documentPath(document.id),
    '@type': 'FinancingDocument' as const,
    ...documentFile(document),
    description: document.description ?? '',
    uploadedAt: document.uploadedAt,
    downloadUrl: `${documentPath(document.id)}/download`,
    reviewStatus: document.reviewStatus,
    rejectionReason: document.reviewStatus === 'REJECTED' ? document.rejectionReason : null,
  };
}

/** The item shape: the list fields of the specification, then the detail fields of its type. */
export function presentItem({ item, responses }: RequestItemView) {
  const state = itemState(item, responses);
  const visible = responses.filter((document) => isVisibleToPartner(document, item.partnerId));
  const paths = (documents: FinancingDocument[]) => documents.map((document) => documentPath(document.id));
  const latestPending = [...visible].reverse().find((document) => document.reviewStatus === 'PENDING_REVIEW');
  return {
    id: item.id,
    type: item.itemType,
    label: item.label,
    status: item.status,
    category: item.category,
    templateDownloadUrl: item.itemType === 'fill_and_return' && item.template ? templateDownloadPath(item.financingCaseId, item.id) : null,
    ...(item.callbackRequestId !== null ? { callbackRequestId: item.callbackRequestId } : {}),
    callbackStatus: item.callbackStatus ?? 'none',
    requestedAt: item.requestedAt,
    dueAt: item.dueAt,
    financingCase: `/api/financing_cases/${item.financingCaseId}`,
    itemType: item.itemType,
    recipientType: item.recipientType,
    targetAudience: item.targetAudience,
    optional: item.optional,
    providedAt: item.providedAt,
    transmittedToLenderAt: item.transmittedToLenderAt,
    updatedAt: item.updatedAt,
    ...state,
    internalOnly: item.internalOnly,
    ...(item.itemType === 'information'
      ? { question: item.question, response: item.response }
      : {
          responseDocuments: paths(visible),
          verifiedResponseDocuments: paths(visible.filter((document) => document.reviewStatus === 'VERIFIED')),
          activeResponseDocuments: paths(visible.filter(isActiveResponse)),
          transmittableResponseDocuments: paths(visible.filter(isTransmittableResponse)),
        }),
    ...(item.itemType === 'document'
      ? { customName: item.customName, latestPendingResponseDocument: latestPending ? documentPath(latestPending.id) : null }
      : {}),
    ...(item.itemType === 'fill_and_return' && item.template
      ? {
          templateFileName: item.template.fileName,
          templateFileSize: item.template.fileSize,
          templateFileMimeType: item.template.mimeType,
          templateOriginalName: item.template.originalName,
        }
      : {}),
  };
}
