import { TypedClient, createGrpcClient } from '@rental/grpc';
import { loadDocumentsPackage } from '@rental/proto';
import type { documents } from '@rental/proto';
import type { CallbackRequest, DocumentContent, DocumentsPort, ItemReference, NewRequest, ReviewedDocument, TransmissionItem } from '../domain/ports';

type DocumentsClient = InstanceType<ReturnType<typeof loadDocumentsPackage>['DocumentsService']>;

function toCallback(message: documents.CallbackRequest__Output): CallbackRequest {
  return {
    id: message.id,
    financingCaseId: message.financingCaseId,
    status: message.status,
    note: message.note || null,
    createdAt: message.createdAt,
    closedAt: message.closedAt || null,
    items: message.items.map((item) => ({ type: item.type as ItemReference['type'], id: item.id })),
  };
}

/** documents over gRPC; it owns items, documents, reviews and callback requests. */
export class GrpcDocuments implements DocumentsPort {
  private readonly client: TypedClient<DocumentsClient>;

  constructor(address: string, deadlineMs: number) {
    this.client = new TypedClient(createGrpcClient(loadDocumentsPackage().DocumentsService, address), deadlineMs);
  }

  async caseFiles(financingCaseId: string) {
    const files = await this.client.call('GetCaseFiles', { financingCaseId }, {});
    return { items: JSON.parse(files.itemsJson) as Record<string, unknown>[], documents: JSON.parse(files.documentsJson) as Record<string, unknown>[] };
  }

  async openItemCounts(financingCaseIds: string[], listOverdueCases: boolean) {
    const answer = await this.client.call('CountOpenItems', { financingCaseIds, listOverdueCases }, {});
    return {
      counts: new Map(answer.cases.map((entry) => [entry.financingCaseId, { openItems: entry.openItems, overdueItems: entry.overdueItems }])),
      overdueCaseIds: answer.overdueCaseIds,
    };
  }

  async createRequests(financingCaseId: string, requests: NewRequest[]): Promise<Record<string, unknown>[]> {
    const created = await this.client.call(
      'CreateRequestItems',
      {
        financingCaseId,
        itemType: '',
        items: requests.map((request) => ({
          itemType: request.type,
          label: request.label,
          category: request.category,
          question: request.question,
          optional: request.optional,
          targetAudience: request.targetAudience,
          dueAt: request.dueAt,
          templateContent: request.template?.content ?? Buffer.alloc(0),
          templateFileName: request.template?.fileName ?? '',
          templateMimeType: '',
        })),
      },
      {},
    );
    // The answer is in the partner's list shape; the back office shows items in its own (every audience).
    const ids = new Set(created.items.map((item) => item.id));
    const { items } = await this.caseFiles(financingCaseId);
    return items.filter((item) => ids.has(item.id as number));
  }

  async review(documentId: number, status: 'VERIFIED' | 'REJECTED', reason: string | null): Promise<ReviewedDocument> {
    const answer = await this.client.call('ReviewDocument', { documentId, status, reason: reason ?? '' }, {});
    return {
      documentId: answer.documentId,
      financingCaseId: answer.financingCaseId,
      partnerId: answer.partnerId,
      itemId: answer.itemId || null,
      itemLabel: answer.itemLabel || null,
      originalName: answer.originalName,
    };
  }

  async open(documentId: number): Promise<DocumentContent> {
    const answer = await this.client.call('OpenDocument', { documentId }, {});
    return { originalName: answer.originalName, mimeType: answer.mimeType, content: answer.content };
  }

  async createCallbackRequest(financingCaseId: string, items: ItemReference[], note: string | null): Promise<CallbackRequest> {
    return toCallback(await this.client.call('CreateCallbackRequest', { financingCaseId, items, note: note ?? '' }, {}));
  }

  async closeCallbackRequest(id: number): Promise<CallbackRequest> {
    return toCallback(await this.client.call('CloseCallbackRequest', { callbackRequestId: id }, {}));
  }

  async collectTransmission(financingCaseId: string, items: ItemReference[]): Promise<TransmissionItem[]> {
    const answer = await this.client.call('CollectTransmission', { financingCaseId, items }, {});
    return answer.items.map((item) => ({
      id: item.id,
      type: item.type,
      label: item.label,
      category: item.category,
      answer: item.type === 'information' ? item.answer : null,
      documents: item.documents.map((file) => ({ fileName: file.fileName, mimeType: file.mimeType, contentBase64: file.content.toString('base64') })),
    }));
  }

  async markTransmitted(financingCaseId: string, items: ItemReference[]): Promise<void> {
    await this.client.call('MarkTransmitted', { financingCaseId, items }, {});
  }

  close(): void {
    this.client.close();
  }
}
