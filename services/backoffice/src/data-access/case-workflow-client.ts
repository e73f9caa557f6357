import { TypedClient, createGrpcClient } from '@rental/grpc';
import { loadCaseWorkflowPackage } from '@rental/proto';
import type { OpsQueueFilters, caseWorkflow } from '@rental/proto';
import type { Actor, CaseRecord, CaseWorkflowPort, HistoryEntry, LenderChannel, QueueEntry, QuoteMoveRequest, TransmissionItem } from '../domain/ports';

type CaseWorkflowClient = InstanceType<ReturnType<typeof loadCaseWorkflowPackage>['CaseWorkflowService']>;

const text = (value: string) => (value ? value : null);

/** The filters as a message: an empty string stands for null, and a flag says whether the list of cases counts. */
function opsQueueRequestOf(filters: OpsQueueFilters): caseWorkflow.ListOpsQueueRequest {
  return {
    statuses: filters.statuses,
    partnerId: filters.partnerId ?? '',
    lenderSubmissionStatus: filters.lenderSubmissionStatus ?? '',
    query: filters.query ?? '',
    onlyListedCases: filters.onlyCases !== null,
    financingCaseIds: filters.onlyCases ?? [],
    limit: filters.limit,
    offset: filters.offset,
  };
}

function toRecord(message: caseWorkflow.OpsCase__Output): CaseRecord {
  return {
    financingCaseId: message.financingCaseId,
    partnerId: message.partnerId,
    status: message.status,
    view: JSON.parse(message.caseJson) as CaseRecord['view'],
  };
}

/** case-workflow over gRPC; it owns quotes, contracts, the case history and the talk with lenders. */
export class GrpcCaseWorkflow implements CaseWorkflowPort, LenderChannel {
  private readonly client: TypedClient<CaseWorkflowClient>;

  constructor(address: string, deadlineMs: number) {
    this.client = new TypedClient(createGrpcClient(loadCaseWorkflowPackage().CaseWorkflowService, address), deadlineMs);
  }

  async queue(filters: OpsQueueFilters): Promise<QueueEntry[]> {
    const answer = await this.client.call('ListOpsQueue', opsQueueRequestOf(filters), {});
    return answer.entries.map((entry) => ({
      id: entry.id,
      caseNumber: entry.caseNumber,
      quoteNumber: entry.quoteNumber,
      partnerId: entry.partnerId,
      status: entry.status,
      contractStatus: text(entry.contractStatus),
      lenderSubmissionStatus: text(entry.lenderSubmissionStatus),
      financingNumber: text(entry.financingNumber),
      inReviewSince: text(entry.inReviewSince),
      statusUpdatedAt: entry.statusUpdatedAt,
    }));
  }

  async caseRecord(financingCaseId: string): Promise<CaseRecord> {
    return toRecord(await this.client.call('GetOpsCase', { financingCaseId }, {}));
  }

  async moveQuote(financingCaseId: string, move: QuoteMoveRequest, reason: string | null, actor: Actor): Promise<CaseRecord> {
    return toRecord(
      await this.client.call(
        'ApplyOperatorMove',
        {
          financingCaseId,
          kind: move.kind,
          transition: move.kind === 'transition' ? move.transition : '',
          reason: reason ?? '',
          actor,
        },
        {},
      ),
    );
  }

  async moveContract(contractId: string, to: string, reason: string | null, actor: Actor): Promise<CaseRecord> {
    return toRecord(await this.client.call('MoveContractForward', { contractId, to, reason: reason ?? '', actor }, {}));
  }

  async recordHistory(...[financingCaseId, action, reason, details, actor, partnerMail]: HistoryEntry): Promise<void> {
    await this.client.call(
      'RecordHistory',
      { financingCaseId, action, reason: reason ?? '', detailsJson: details ? JSON.stringify(details) : '', actor, partnerMail },
      {},
    );
  }

  async sendAttachments(financingCaseId: string, items: TransmissionItem[], actor: Actor): Promise<void> {
    await this.client.call(
      'SendLenderAttachments',
      {
        financingCaseId,
        // A lender attachment item is the transmission item; proto3 has no null answer.
        items: items.map((item) => ({ ...item, answer: item.answer ?? '' })),
        operatorId: actor.id,
        operatorName: actor.name,
      },
      {},
    );
  }

  async resubmit(financingCaseId: string, actor: Actor): Promise<void> {
    await this.client.call('ResubmitToLender', { financingCaseId, operatorId: actor.id, operatorName: actor.name ?? '' }, {});
  }

  close(): void {
    this.client.close();
  }
}
