import { TypedClient, createGrpcClient } from '@rental/grpc';
import { ProblemDocument, isDomainError, unavailable } from '@rental/problem';
import { listedRequestItemOf, loadDocumentsPackage, requestedItemTypeOf } from '@rental/proto';
import type { RequestedItem } from '../domain/shared/model';
import type { CallContext, DocumentsPort, NewRequestItem, OverdueItem, OverdueStage } from '../domain/shared/ports';

type DocumentsServiceClient = InstanceType<ReturnType<typeof loadDocumentsPackage>['DocumentsService']>;

/**
 * The documents service's gRPC calls behind the domain's port. Its domain errors (404, 422, …)
 * reach the partner unchanged; a peer that is down, or fails without saying why, is a 503 here,
 * never a 500 of this service.
 */
export class DocumentsClient implements DocumentsPort {
  private readonly typed: TypedClient<DocumentsServiceClient>;

  constructor(address: string, deadlineMs: number) {
    this.typed = new TypedClient(createGrpcClient(loadDocumentsPackage().DocumentsService, address), deadlineMs);
  }

  private readonly client = {
    call: (async (method, request, context) => {
      try {
        return await this.typed.call(method, request, context);
      } catch (error) {
        if (isDomainError(error) && error.kind === 'internal')
          throw unavailable('dependency.failed', 'The documents service failed to answer. Retry later.', error);
        throw error;
      }
    }) as TypedClient<DocumentsServiceClient>['call'],
  };

  async listRequestItemsOfCases(financingCaseIds: string[], context: CallContext): Promise<Map<string, RequestedItem[]>> {
    const byCase = new Map<string, RequestedItem[]>(financingCaseIds.map((id) => [id, []]));
    if (financingCaseIds.length === 0) return byCase;
    const response = await this.client.call('ListRequestItemsOfCases', { financingCaseIds }, context);
    for (const entry of response.cases) byCase.set(entry.financingCaseId, entry.items.map(listedRequestItemOf));
    return byCase;
  }

  async listRequestItemsJsonOfCases(financingCaseIds: string[], context: CallContext): Promise<Map<string, string>> {
    if (financingCaseIds.length === 0) return new Map();
    const response = await this.client.call('ListRequestItemsOfCasesJson', { financingCaseIds }, context);
    return new Map(response.cases.map((entry) => [entry.financingCaseId, entry.listsJson]));
  }

  async createRequestItems(
    financingCaseId: string,
    itemType: RequestedItem['type'],
    items: NewRequestItem[],
    context: CallContext,
    creationKey?: string,
  ): Promise<RequestedItem[]> {
    const response = await this.client.call(
      'CreateRequestItems',
      {
        financingCaseId,
        itemType,
        creationKey: creationKey ?? '',
        items: items.map((item) => ({
          label: item.label,
          category: item.category,
          question: item.question,
          optional: item.optional,
          targetAudience: item.targetAudience ?? 'partner',
          dueAt: item.dueAt?.toISOString() ?? '',
        })),
      },
      context,
    );
    return response.items.map(listedRequestItemOf);
  }

  async rejectDocument(financingCaseId: string, documentId: number, reason: string, context: CallContext): Promise<void> {
    await this.client.call('RejectDocument', { financingCaseId, documentId, reason }, context);
  }

  async describeUploadRejection(financingCaseId: string, itemId: number, reason: 'type' | 'size', context: CallContext): Promise<ProblemDocument> {
    const response = await this.client.call('DescribeUploadRejection', { financingCaseId, itemId, reason }, context);
    try {
      return JSON.parse(response.problemJson) as ProblemDocument;
    } catch (error) {
      throw unavailable('dependency.invalid_answer', 'The documents service gave an answer that cannot be read. Retry later.', error);
    }
  }

  async attachSignedContract(financingCaseId: string, contractId: string, context: CallContext): Promise<void> {
    await this.client.call('AttachSignedContract', { financingCaseId, contractId }, context);
  }

  async storeSignedContract(financingCaseId: string, contractId: string, document: { fileName: string; content: Buffer }, context: CallContext): Promise<void> {
    await this.client.call('StoreSignedContract', { financingCaseId, contractId, fileName: document.fileName, content: document.content }, context);
  }

  async resetCase(financingCaseId: string, context: CallContext): Promise<void> {
    await this.client.call('ResetCase', { financingCaseId }, context);
  }

  async listCustomerRequestItems(financingCaseId: string, context: CallContext): Promise<RequestedItem[]> {
    const response = await this.client.call('ListCustomerRequestItems', { financingCaseId }, context);
    return response.items.map(listedRequestItemOf);
  }

  async answerCustomerInformation(financingCaseId: string, informationId: number, response: string, context: CallContext): Promise<void> {
    await this.client.call('AnswerCustomerInformation', { financingCaseId, informationId, response }, context);
  }

  listOverdueItems(dueBefore: Date, stage: OverdueStage, limit: number): Promise<OverdueItem[]> {
    return this.overdueItems(
      { dueBefore: dueBefore.toISOString(), stage, limit, financingCaseIds: [] },
      { requestId: `clock-${stage}-${dueBefore.getTime()}` },
    );
  }

  listOverdueItemsOfCase(financingCaseId: string, dueBefore: Date, stage: OverdueStage, context: CallContext): Promise<OverdueItem[]> {
    return this.overdueItems({ dueBefore: dueBefore.toISOString(), stage, limit: 1000, financingCaseIds: [financingCaseId] }, context);
  }

  private async overdueItems(
    request: { dueBefore: string; stage: OverdueStage; limit: number; financingCaseIds: string[] },
    context: { partnerId?: string; requestId?: string },
  ): Promise<OverdueItem[]> {
    const response = await this.client.call('ListOverdueItems', request, context);
    return response.items.map((item) => ({
      id: item.id,
      type: requestedItemTypeOf(item.type),
      financingCaseId: item.financingCaseId,
      partnerId: item.partnerId,
      label: item.label,
      dueAt: item.dueAt,
      targetAudience: item.targetAudience,
    }));
  }

  async markOverdueItems(itemIds: number[], stage: OverdueStage, at: Date): Promise<void> {
    if (itemIds.length === 0) return;
    await this.client.call('MarkOverdueItems', { itemIds, stage, at: at.toISOString() }, { requestId: `clock-${stage}-${at.getTime()}` });
  }

  close(): void {
    this.typed.close();
  }
}
