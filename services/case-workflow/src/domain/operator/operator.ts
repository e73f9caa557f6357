import { type ProblemCode, choiceMessage, invalidInput, notFound, ruleViolation } from '@rental/problem';
import type { OpsQueueFilters } from '@rental/proto';
import { caseNotFound } from '../shared/access';
import { applyApprovalTeamCancel } from '../case/cancel';
import { CONTRACT_PLACES, ContractPlace, contractPath, isContractPlace } from '../contract/contract-machine';
import { moveContractTo } from '../contract/contracts';
import type { Actor, ContractDetails, FinancingCase, HistoryEntry, QuoteDetails } from '../shared/model';
import type { MailRequest, PartnerNames } from '../shared/ports';
import type { CaseLocks, CaseReads, CaseRecord } from '../case/ports';
import type { LenderWork } from '../lender/ports';
import type { OpsReads, OpsQueueEntry, LenderSubmissionView } from './ports';
import { QUOTE_MOVES, QuoteMove, isQuoteStatus } from '../quote/quote-machine';
import type { QuoteWork } from '../quote/ports';

export interface OperatorDependencies {
  store: CaseReads & CaseLocks;
  reads: OpsReads;
  partners: PartnerNames;
}

export interface OpsCaseView {
  financingCase: FinancingCase;
  quote: QuoteDetails;
  contract: ContractDetails | null;
  lenderSubmissions: LenderSubmissionView[];
  history: HistoryEntry[];
}

const rule = (code: ProblemCode, message: string, propertyPath = '') => ruleViolation(code, message, [{ propertyPath, code, message }]);

export async function opsQueue(deps: OperatorDependencies, filters: OpsQueueFilters): Promise<OpsQueueEntry[]> {
  const unknown = filters.statuses.find((status) => !isQuoteStatus(status));
  if (unknown) throw invalidInput('ops.unknown_status', `${unknown} is not a status of the quote table.`);
  if (filters.onlyCases && filters.onlyCases.length === 0) return [];
  // A page holds 1 to 100 entries; blanks around the search words do not count.
  return deps.reads.listQueue({
    ...filters,
    query: filters.query?.trim() || null,
    limit: Math.min(Math.max(filters.limit, 1), 100),
    offset: Math.max(filters.offset, 0),
  });
}

export async function opsCase(deps: OperatorDependencies, financingCaseId: string): Promise<OpsCaseView> {
  const financingCase = await deps.store.findCase(financingCaseId);
  if (!financingCase) throw caseNotFound(financingCaseId);
  const [quote, lenderSubmissions, history] = await Promise.all([
    deps.store.findQuoteDetails(financingCase.quoteId),
    deps.reads.listLenderSubmissions(financingCaseId),
    deps.store.listHistory(financingCaseId),
  ]);
  if (!quote) throw caseNotFound(financingCaseId);
  const contract = quote.contractId ? ((await deps.store.findContract(quote.contractId)) ?? null) : null;
  return { financingCase, quote, contract, lenderSubmissions, history: await withPartnerNames(deps.partners, history) };
}

/**
 * Partner entries are stored with the partner's id only; the history names the partner as its
 * profile does now (the name a partner changes is shown changed), or null when pricing cannot tell.
 */
async function withPartnerNames(partners: PartnerNames, history: HistoryEntry[]): Promise<HistoryEntry[]> {
  const unnamedPartner = ({ actor }: HistoryEntry) => (actor.type === 'partner' && !actor.name ? actor.id : null);
  const ids = [...new Set(history.map(unnamedPartner).filter((id): id is string => id !== null))];
  const names = new Map(await Promise.all(ids.map(async (id) => [id, await partners.nameOf(id)] as const)));
  return history.map((entry) => {
    const id = unnamedPartner(entry);
    return id === null ? entry : { ...entry, actor: { ...entry.actor, name: names.get(id) ?? null } };
  });
}

export type OperatorMove = { kind: 'transition'; transition: string } | { kind: 'override' } | { kind: 'cancel' };

/** The effects a move has beyond the status, as the sandbox and the lender apply them. */
async function applyMove(transaction: CaseRecord & QuoteWork & LenderWork, move: QuoteMove, reason: string | null): Promise<void> {
  if (move === 'cancel')
    throw rule('ops.cancel_route_required', 'A case is canceled with POST /ops/v1/cases/{id}/cancel, which asks for a reason.', 'transition');
  if (move === 'finance_accept' && transaction.financingCase.status === 'finance_rejected') {
    throw rule(
      'ops.override_required',
      'The case is finance_rejected; accepting it is the override (POST /ops/v1/cases/{id}/override) with a reason.',
      'transition',
    );
  }
  await transaction.moveQuote(move);
  if (move === 'request_finance_review' || move === 'request_finance_review_direct') await transaction.queueLenderSubmission();
  if (move === 'finance_accept' || move === 'finance_resume') await transaction.activateFinancingResponse('accepted');
  if (move === 'start_manual_finance_review') await transaction.activateFinancingResponse('review');
  if (move === 'finance_reject') {
    await transaction.deactivateFinancingResponses();
    await transaction.setRejectionReason(reason);
  }
}

/** POST /ops/v1/cases/{id}/transitions, /override and /cancel: one move of the quote by an operator. */
export async function applyOperatorMove(
  deps: OperatorDependencies,
  input: { financingCaseId: string; move: OperatorMove; reason: string | null; actor: Actor },
): Promise<OpsCaseView> {
  const { move } = input;
  if (move.kind === 'transition' && !(QUOTE_MOVES as readonly string[]).includes(move.transition)) {
    throw rule('ops.unknown_transition', `${move.transition} is not a move of the quote table.`, 'transition');
  }
  const outcome = await deps.store.inCase(
    input.financingCaseId,
    async (transaction) => {
      if (move.kind === 'cancel') {
        await applyApprovalTeamCancel(transaction);
      } else if (move.kind === 'override') {
        const current = transaction.financingCase.status;
        if (current !== 'finance_rejected')
          throw rule('ops.override_not_applicable', `The case is ${current}; only a finance_rejected case can be overridden.`);
        await transaction.moveQuote('finance_accept', { financeRejectedOverride: true });
        await transaction.activateFinancingResponse('accepted');
        await transaction.setRejectionReason(null);
      } else {
        await applyMove(transaction, move.transition as QuoteMove, input.reason);
      }
    },
    { actor: input.actor, reason: input.reason },
  );
  if (!outcome) throw caseNotFound(input.financingCaseId);
  return opsCase(deps, input.financingCaseId);
}

const FORWARD_PLACES: readonly ContractPlace[] = CONTRACT_PLACES.slice(1, 6);

/**
 * POST /ops/v1/contracts/{id}/transitions: forward along signed → … → completed, steps skipped
 * as asked (each step one event), never back. A completed contract completes its quote.
 */
export async function moveContractForward(
  deps: OperatorDependencies,
  input: { contractId: string; to: string; reason: string | null; actor: Actor },
): Promise<OpsCaseView> {
  if (!isContractPlace(input.to) || !FORWARD_PLACES.includes(input.to)) {
    throw rule('validation.choice', choiceMessage(FORWARD_PLACES), 'to');
  }
  const target = input.to;
  const financingCaseId = await deps.reads.caseOfContract(input.contractId);
  if (!financingCaseId) throw notFound('contract.not_found', `No contract ${input.contractId}.`);
  await deps.store.inCase(
    financingCaseId,
    async (transaction) => {
      const contract = transaction.contract;
      if (!contract || contract.id !== input.contractId) throw notFound('contract.not_found', `No contract ${input.contractId}.`);
      const moves = contract.status === target ? undefined : contractPath(contract.status, target);
      if (!moves)
        throw rule('contract.transition_not_allowed', `The contract is ${contract.status}; it moves only forward, and ${target} is not ahead of it.`, 'to');
      if (target === 'completed' && !contract.contractNumber)
        throw rule('contract.number_missing', 'A contract can be completed only once it has a contract number.', 'to');
      await moveContractTo(transaction, moves, target);
    },
    { actor: input.actor, reason: input.reason },
  );
  return opsCase(deps, financingCaseId);
}

/**
 * A change the owner of other data made (a review, a request, a note) in the case's history; a
 * mail to the partner about it is requested in the same transaction, so both happen or neither.
 */
export async function recordOperatorHistory(
  deps: OperatorDependencies,
  input: {
    financingCaseId: string;
    action: string;
    reason: string | null;
    details: Record<string, unknown> | null;
    actor: Actor;
    partnerMail: Omit<MailRequest, 'recipient'> | null;
  },
): Promise<void> {
  if (!/^[a-z_]{1,64}$/.test(input.action)) throw invalidInput('history.invalid_action', 'action must be a lower-case name of at most 64 characters.');
  const outcome = await deps.store.inCase(
    input.financingCaseId,
    async (transaction) => {
      await transaction.recordHistory(input.action, { reason: input.reason, details: input.details });
      if (input.partnerMail) await transaction.requestMail({ ...input.partnerMail, recipient: { partnerId: transaction.financingCase.partnerId } });
    },
    { actor: input.actor, reason: input.reason },
  );
  if (!outcome) throw caseNotFound(input.financingCaseId);
}
