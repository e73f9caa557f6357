import type { ServiceBinding } from '@rental/grpc';
import { unaryHandlers } from '@rental/grpc';
import type { Logger } from '@rental/logger';
import { loadDocumentsPackage, requestItemMessageOf } from '@rental/proto';
import type { documents } from '@rental/proto';
import { mapDatabaseError } from '@rental/service-host';
import type { DocumentsDependencies } from '../../domain/documents';
import { invalidInput } from '@rental/problem';
import type { CaseCleanup, OperatorFiles, OverdueStage } from '../../domain/ports';
import { RequestItemView, createRequestItems, listRequestItemsJsonOfCases, listRequestItemsOfCase, listRequestItemsOfCases } from '../../domain/request-items';
import { attachSignedContract, describeUploadRejection, rejectDocument, resetCase, storeSignedContract } from '../../domain/sandbox';
import { answerCustomerInformation, listCustomerItems } from '../../domain/customer';
import { presentItem } from '../http/presenters';
import { operatorUseCases } from './operator-handlers';

/** The list-item shape as a message (the partner's list leaves callbackRequestId out where there is none). */
function itemMessage(view: RequestItemView): documents.RequestItem {
  const item = presentItem(view);
  return requestItemMessageOf({ ...item, callbackRequestId: item.callbackRequestId ?? null, question: view.item.question });
}

function overdueStage(stage: string): OverdueStage {
  if (stage !== 'notice' && stage !== 'cancel') throw invalidInput('overdue.invalid_stage', 'stage must be notice or cancel.');
  return stage;
}

/** The calls case-workflow and the back office make; each adapts one use case. */
export function documentsGrpcService(deps: DocumentsDependencies & { cleanup: CaseCleanup; operator: OperatorFiles }, log: Logger): ServiceBinding {
  const mappers = [mapDatabaseError];
  const implementation = unaryHandlers<documents.DocumentsServiceHandlers>(log, mappers, {
    CreateRequestItems: async (request, context) => {
      const items = request.items.map(({ templateContent, templateFileName, ...item }) => ({
        ...item,
        ...(templateContent.length > 0 ? { template: { content: templateContent, fileName: templateFileName } } : {}),
      }));
      const views = await createRequestItems(deps, {
        financingCaseId: request.financingCaseId,
        itemType: request.itemType,
        items,
        creationKey: request.creationKey,
        context,
      });
      return { items: views.map(itemMessage) };
    },
    ListRequestItems: async (request, context) => {
      const views = await listRequestItemsOfCase(deps, { financingCaseId: request.financingCaseId, context });
      return { items: views.map(itemMessage) };
    },
    ListRequestItemsOfCases: async (request, context) => {
      const byCase = await listRequestItemsOfCases(deps, { financingCaseIds: request.financingCaseIds, context });
      return { cases: [...byCase].map(([financingCaseId, views]) => ({ financingCaseId, items: views.map(itemMessage) })) };
    },
    ListRequestItemsOfCasesJson: async (request, context) => ({
      cases: await listRequestItemsJsonOfCases(deps, { financingCaseIds: request.financingCaseIds, context }),
    }),
    RejectDocument: async (request, context) => {
      const { document, reopenedItemId } = await rejectDocument(deps, {
        financingCaseId: request.financingCaseId,
        documentId: request.documentId,
        reason: request.reason,
        context,
      });
      return { documentId: document.id, reopenedItemId: reopenedItemId ?? 0 };
    },
    DescribeUploadRejection: async (request, context) => {
      return {
        problemJson: await describeUploadRejection(deps, {
          financingCaseId: request.financingCaseId,
          itemId: request.itemId,
          reason: request.reason,
          context,
        }),
      };
    },
    AttachSignedContract: async (request, context) => {
      const { document, created } = await attachSignedContract(deps, { financingCaseId: request.financingCaseId, contractId: request.contractId, context });
      return { documentId: document.id, created };
    },
    StoreSignedContract: async (request, context) => {
      const { document, created } = await storeSignedContract(deps, {
        financingCaseId: request.financingCaseId,
        contractId: request.contractId,
        fileName: request.fileName,
        content: Buffer.from(request.content),
        context,
      });
      return { documentId: document.id, created };
    },
    ResetCase: async (request, context) => {
      return resetCase(deps, { financingCaseId: request.financingCaseId, context });
    },
    ...operatorUseCases(deps),
    ListCustomerRequestItems: async (request) => {
      const items = await listCustomerItems(deps, request.financingCaseId);
      return { items: items.map((item) => itemMessage({ item, responses: [] })) };
    },
    ListOverdueItems: async (request, context) => {
      const stage = overdueStage(request.stage);
      // Named cases are the calling partner's only; the scheduler names none and calls as the system.
      const only = request.financingCaseIds.length > 0 ? { partnerId: context.partnerId, financingCaseIds: request.financingCaseIds } : undefined;
      const items = await deps.items.listOverdue(request.dueBefore, stage, Math.min(Math.max(request.limit, 1), 1000), only);
      return {
        items: items.map((item) => ({
          id: item.id,
          type: item.itemType,
          financingCaseId: item.financingCaseId,
          partnerId: item.partnerId,
          label: item.label,
          dueAt: item.dueAt ?? '',
          targetAudience: item.targetAudience,
        })),
      };
    },
    MarkOverdueItems: async (request) => {
      return { marked: await deps.items.markOverdue(request.itemIds, overdueStage(request.stage), request.at) };
    },
    AnswerCustomerInformation: async (request) => {
      const item = await answerCustomerInformation(deps, request.financingCaseId, request.informationId, request.response);
      return itemMessage({ item, responses: [] });
    },
  });
  return { definition: loadDocumentsPackage().DocumentsService.service, implementation };
}
