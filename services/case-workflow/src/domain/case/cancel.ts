import { ruleViolation } from '@rental/problem';
import { caseNotFound, ownCase, requireApiUser } from '../shared/access';
import type { ContractPlace } from '../contract/contract-machine';
import { partnerActor } from '../shared/model';
import type { CaseRecord } from './ports';
import type { ContractWork } from '../contract/ports';
import type { QuoteWork } from '../quote/ports';
import type { CaseLocks } from './ports';
import type { QuoteStatus } from '../quote/quote-machine';

/** Quote states a partner may not cancel from (canceled included: a case is canceled once). */
const PARTNER_CANCEL_REFUSED_QUOTE_STATES: readonly QuoteStatus[] = ['in_progress', 'rejected_by_customer', 'finance_rejected', 'canceled'];
/** A signed contract stays active, so a partner cannot cancel from there on. */
const PARTNER_CANCEL_REFUSED_CONTRACT_PLACES: readonly ContractPlace[] = [
  'signed',
  'post_processing_required',
  'delivery_approved',
  'invoice_checked',
  'completed',
];

/** Why a partner may not cancel a case in this state, or null when it may. */
export function partnerCancelRefusal(quoteStatus: QuoteStatus, contractPlace: ContractPlace | null): string | null {
  if (quoteStatus === 'canceled') return 'The financing case is already canceled.';
  if (PARTNER_CANCEL_REFUSED_QUOTE_STATES.includes(quoteStatus)) return `The financing case cannot be canceled while its quote is ${quoteStatus}.`;
  if (contractPlace !== null && PARTNER_CANCEL_REFUSED_CONTRACT_PLACES.includes(contractPlace))
    return `The financing case cannot be canceled: its contract is ${contractPlace}.`;
  return null;
}

/**
 * The partner's cancel inside a locked case: the quote and, while it waits for signing, the
 * contract move to canceled, one event each. Documents and notifications react to the quote's
 * event (document tokens, callback requests, mail to the financer or hub).
 */
export async function applyPartnerCancel(transaction: CancelWork): Promise<void> {
  const refusal = partnerCancelRefusal(transaction.financingCase.status, transaction.contract?.status ?? null);
  if (refusal) throw notCancelable(refusal);
  await cancelQuoteAndWaitingContract(transaction);
}

/** What a cancel needs of the locked case: the quote's and the waiting contract's moves. */
type CancelWork = CaseRecord & QuoteWork & ContractWork;

const notCancelable = (message: string) =>
  ruleViolation('financing_case.not_cancelable', message, [{ propertyPath: '', code: 'financing_case.not_cancelable', message }]);

async function cancelQuoteAndWaitingContract(transaction: CancelWork): Promise<void> {
  await transaction.moveQuote('cancel');
  if (transaction.contract?.status === 'wait_for_signing') await transaction.moveContract('cancel');
}

/**
 * The approval team's cancel (also the clock's automatic one) inside a locked case: from any of
 * the 12 other states, without the partner's restrictions. A contract still waiting for signing
 * is canceled with it; a signed (or later) contract stays active. Every other effect follows the
 * quote's cancel event, as for the partner cancel.
 */
export async function applyApprovalTeamCancel(transaction: CancelWork): Promise<void> {
  if (transaction.financingCase.status === 'canceled') throw notCancelable('The financing case is already canceled.');
  await cancelQuoteAndWaitingContract(transaction);
}

/** POST /api/financing_cases/{id}/cancel */
export async function cancelCase(store: CaseLocks, id: string, partner: { id: string; roles: readonly string[] }): Promise<void> {
  requireApiUser(partner.roles);
  const outcome = await store.inCase(
    id,
    async (transaction) => {
      ownCase(transaction.financingCase, partner.id);
      await applyPartnerCancel(transaction);
    },
    { actor: partnerActor(partner.id) },
  );
  if (!outcome) throw caseNotFound(id);
}
