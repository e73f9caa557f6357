import { ruleViolation } from '@rental/problem';
import { QUOTE_MOVES, QUOTE_STATES, type QuoteMove, type QuoteStatus } from '@rental/proto';

// The states and moves are the contract's (@rental/proto); the table below is this service's.
export { QUOTE_MOVES, QUOTE_STATES };
export type { QuoteMove, QuoteStatus };

export interface QuoteTransition {
  from: QuoteStatus;
  move: QuoteMove;
  to: QuoteStatus;
  /** Only allowed when the caller sets this flag (the approval team's override). */
  requires?: 'financeRejectedOverride';
}

const CANCELABLE: readonly QuoteStatus[] = QUOTE_STATES.filter((state) => state !== 'canceled');

/** The specification's quote table, row by row: every listed move and no other. */
export const QUOTE_TRANSITIONS: readonly QuoteTransition[] = [
  { from: 'in_progress', move: 'finalize', to: 'in_review' },
  { from: 'review_expired', move: 'reactivate', to: 'in_review' },
  { from: 'change_requested', move: 'apply_changes', to: 'in_review' },
  { from: 'in_review', move: 'accept_by_customer', to: 'accepted_by_customer' },
  { from: 'in_progress', move: 'accept_by_customer', to: 'accepted_by_customer' },
  { from: 'accepted_by_customer', move: 'request_finance_review', to: 'finance_review' },
  { from: 'in_progress', move: 'request_finance_review_direct', to: 'finance_review' },
  { from: 'finance_review', move: 'finance_accept', to: 'finance_accepted' },
  { from: 'manual_finance_review', move: 'finance_accept', to: 'finance_accepted' },
  { from: 'finance_questions', move: 'finance_accept', to: 'finance_accepted' },
  { from: 'finance_rejected', move: 'finance_accept', to: 'finance_accepted', requires: 'financeRejectedOverride' },
  { from: 'finance_accepted', move: 'complete', to: 'completed' },
  { from: 'in_review', move: 'request_changes', to: 'change_requested' },
  { from: 'finance_review', move: 'finance_needs_help', to: 'finance_questions' },
  { from: 'manual_finance_review', move: 'finance_needs_help', to: 'finance_questions' },
  { from: 'accepted_by_customer', move: 'start_manual_finance_review', to: 'manual_finance_review' },
  { from: 'in_progress', move: 'start_manual_finance_review', to: 'manual_finance_review' },
  { from: 'in_review', move: 'reject_by_customer', to: 'rejected_by_customer' },
  { from: 'in_review', move: 'expire', to: 'review_expired' },
  { from: 'finance_review', move: 'finance_reject', to: 'finance_rejected' },
  { from: 'manual_finance_review', move: 'finance_reject', to: 'finance_rejected' },
  { from: 'finance_questions', move: 'finance_reject', to: 'finance_rejected' },
  { from: 'finance_rejected', move: 'finance_resume', to: 'finance_accepted' },
  ...CANCELABLE.map((from): QuoteTransition => ({ from, move: 'cancel', to: 'canceled' })),
];

/** The states a move leaves from without any flag, in the table's order. */
export function statesAllowing(move: QuoteMove): QuoteStatus[] {
  return QUOTE_TRANSITIONS.filter((transition) => transition.move === move && !transition.requires).map((transition) => transition.from);
}

/** Under the lender's review: where a finance decision (accept or reject) can be taken. */
export const UNDER_FINANCE_REVIEW: readonly QuoteStatus[] = statesAllowing('finance_reject');

export interface MoveFlags {
  financeRejectedOverride?: boolean;
}

export function isQuoteStatus(value: string): value is QuoteStatus {
  return (QUOTE_STATES as readonly string[]).includes(value);
}

/** The transition a move takes from a state, or undefined when the table has none for these flags. */
function findQuoteTransition(from: QuoteStatus, move: QuoteMove, flags: MoveFlags = {}): QuoteTransition | undefined {
  return QUOTE_TRANSITIONS.find(
    (transition) => transition.from === from && transition.move === move && (!transition.requires || flags[transition.requires] === true),
  );
}

/** The state after a move, or a 422 naming the state and the move that the table does not allow. */
export function nextQuoteStatus(from: QuoteStatus, move: QuoteMove, flags: MoveFlags = {}): QuoteStatus {
  const transition = findQuoteTransition(from, move, flags);
  if (!transition) {
    const message = `The quote is ${from}; the move ${move} is not allowed from there.`;
    throw ruleViolation('quote.transition_not_allowed', message, [{ propertyPath: '', code: 'quote.transition_not_allowed', message }]);
  }
  return transition.to;
}

/**
 * The shortest sequence of moves from one state to another over the table, never using cancel
 * or the override: how the sandbox drives a quote into a chosen state as a real case would
 * get there. [] when already there; undefined when the target cannot be reached.
 */
export function quotePath(from: QuoteStatus, to: QuoteStatus): QuoteMove[] | undefined {
  if (from === to) return [];
  const usable = QUOTE_TRANSITIONS.filter((transition) => transition.move !== 'cancel' && !transition.requires);
  const previous = new Map<QuoteStatus, { state: QuoteStatus; move: QuoteMove }>();
  const queue: QuoteStatus[] = [from];
  const seen = new Set<QuoteStatus>([from]);
  while (queue.length > 0) {
    const state = queue.shift() as QuoteStatus;
    for (const transition of usable.filter((candidate) => candidate.from === state)) {
      if (seen.has(transition.to)) continue;
      seen.add(transition.to);
      previous.set(transition.to, { state, move: transition.move });
      if (transition.to === to) {
        const moves: QuoteMove[] = [];
        for (let at: QuoteStatus = to; at !== from;) {
          const step = previous.get(at) as { state: QuoteStatus; move: QuoteMove };
          moves.unshift(step.move);
          at = step.state;
        }
        return moves;
      }
      queue.push(transition.to);
    }
  }
  return undefined;
}
