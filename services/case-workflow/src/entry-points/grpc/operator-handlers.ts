import type { UnaryUseCases } from '@rental/grpc';
import { invalidInput } from '@rental/problem';
import type { OpsQueueFilters, caseWorkflow, common } from '@rental/proto';
import type { Actor, ActorType } from '../../domain/shared/model';
import {
  OperatorDependencies,
  OperatorMove,
  OpsCaseView,
  applyOperatorMove,
  moveContractForward,
  opsCase,
  opsQueue,
  recordOperatorHistory,
} from '../../domain/operator/operator';
import { presentContract, presentQuote } from '../http/presenters';

const ACTOR_TYPES: readonly ActorType[] = ['partner', 'customer', 'lender', 'signing', 'operator', 'system'];
const text = (value: string | undefined | null) => (value ? value : null);

/** The filters the back office's message carries: an empty string stands for null, and a flag says whether the list of cases counts. */
function opsQueueFiltersOf(request: caseWorkflow.ListOpsQueueRequest__Output): OpsQueueFilters {
  return {
    statuses: request.statuses,
    partnerId: request.partnerId || null,
    lenderSubmissionStatus: request.lenderSubmissionStatus || null,
    query: request.query || null,
    onlyCases: request.onlyListedCases ? request.financingCaseIds : null,
    limit: request.limit,
    offset: request.offset,
  };
}

function toActor(actor: common.Actor__Output | null): Actor {
  if (!actor || !(ACTOR_TYPES as readonly string[]).includes(actor.type)) throw invalidInput('history.actor_required', 'actor with a known type is required.');
  return { type: actor.type as ActorType, id: text(actor.id), name: text(actor.name) };
}

/** The case view of the back office (its JSON crosses untouched; the back office adds items and documents). */
function presentOpsCase(view: OpsCaseView) {
  const { financingCase, quote, contract } = view;
  const presentedContract = contract ? presentContract(contract) : null;
  return {
    id: financingCase.id,
    caseNumber: financingCase.caseNumber,
    partnerId: financingCase.partnerId,
    status: financingCase.status,
    rejectionReason: financingCase.rejectionReason,
    financingRequest: financingCase.financingRequest,
    createdAt: financingCase.createdAt,
    updatedAt: financingCase.updatedAt,
    quote: presentQuote(quote),
    contract: contract
      ? {
          id: contract.contract.id,
          contractNumber: contract.contract.contractNumber,
          status: contract.contract.status,
          statusUpdatedAt: contract.contract.statusUpdatedAt,
          createdAt: contract.contract.createdAt,
          updatedAt: contract.contract.updatedAt,
        }
      : null,
    envelope: contract?.envelope
      ? {
          ...presentedContract?.signatureEnvelope,
          declineReason: contract.envelope.declineReason,
          createdAt: contract.envelope.createdAt,
          updatedAt: contract.envelope.updatedAt,
        }
      : null,
    lenderSubmissions: view.lenderSubmissions,
    history: view.history.map((entry) => ({
      at: entry.at,
      actor: entry.actor,
      action: entry.action,
      resourceType: entry.resourceType,
      fromStatus: entry.fromStatus,
      toStatus: entry.toStatus,
      reason: entry.reason,
      details: entry.details,
    })),
  };
}

const opsCaseMessage = (view: OpsCaseView): caseWorkflow.OpsCase => ({
  financingCaseId: view.financingCase.id,
  partnerId: view.financingCase.partnerId,
  status: view.financingCase.status,
  caseJson: JSON.stringify(presentOpsCase(view)),
});

function toMove(request: caseWorkflow.ApplyOperatorMoveRequest__Output): OperatorMove {
  if (request.kind === 'transition') return { kind: 'transition', transition: request.transition };
  if (request.kind === 'override' || request.kind === 'cancel') return { kind: request.kind };
  throw invalidInput('ops.unknown_move_kind', 'kind must be transition, override or cancel.');
}

/** The calls of the back office; each adapts one use case of ../../domain/operator. */
export function operatorUseCases(
  deps: OperatorDependencies,
): Pick<
  UnaryUseCases<caseWorkflow.CaseWorkflowServiceHandlers>,
  'ListOpsQueue' | 'GetOpsCase' | 'ApplyOperatorMove' | 'MoveContractForward' | 'RecordHistory'
> {
  return {
    ListOpsQueue: async (request) => {
      const entries = await opsQueue(deps, opsQueueFiltersOf(request));
      return {
        entries: entries.map((entry) => ({
          ...entry,
          contractStatus: entry.contractStatus ?? '',
          lenderSubmissionStatus: entry.lenderSubmissionStatus ?? '',
          financingNumber: entry.financingNumber ?? '',
          inReviewSince: entry.inReviewSince ?? '',
          customerCompany: entry.customerCompany ?? '',
        })),
      };
    },
    GetOpsCase: async (request) => opsCaseMessage(await opsCase(deps, request.financingCaseId)),
    ApplyOperatorMove: async (request) =>
      opsCaseMessage(
        await applyOperatorMove(deps, {
          financingCaseId: request.financingCaseId,
          move: toMove(request),
          reason: text(request.reason),
          actor: toActor(request.actor),
        }),
      ),
    MoveContractForward: async (request) =>
      opsCaseMessage(
        await moveContractForward(deps, {
          contractId: request.contractId,
          to: request.to,
          reason: text(request.reason),
          actor: toActor(request.actor),
        }),
      ),
    RecordHistory: async (request) => {
      let details: Record<string, unknown> | null = null;
      if (request.detailsJson) {
        try {
          details = JSON.parse(request.detailsJson) as Record<string, unknown>;
        } catch {
          throw invalidInput('history.invalid_details', 'details_json is not JSON.');
        }
      }
      const mail = request.partnerMail;
      const partnerMail = mail && mail.subject ? { kind: mail.kind || request.action, subject: mail.subject, text: mail.text } : null;
      await recordOperatorHistory(deps, {
        financingCaseId: request.financingCaseId,
        action: request.action,
        reason: text(request.reason),
        details,
        actor: toActor(request.actor),
        partnerMail,
      });
      return {};
    },
  };
}
