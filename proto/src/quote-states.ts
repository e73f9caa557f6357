/**
 * The quote's states and moves: the values a financing case's status and a move of its quote
 * take. case-workflow's quote table says which move leads where; the back office's console
 * offers them.
 */
export const QUOTE_STATES = [
  'in_progress',
  'in_review',
  'review_expired',
  'change_requested',
  'accepted_by_customer',
  'rejected_by_customer',
  'finance_review',
  'manual_finance_review',
  'finance_questions',
  'finance_accepted',
  'finance_rejected',
  'completed',
  'canceled',
] as const;
export type QuoteStatus = (typeof QUOTE_STATES)[number];

export const QUOTE_MOVES = [
  'finalize',
  'reactivate',
  'apply_changes',
  'accept_by_customer',
  'request_finance_review',
  'request_finance_review_direct',
  'finance_accept',
  'complete',
  'request_changes',
  'finance_needs_help',
  'start_manual_finance_review',
  'reject_by_customer',
  'expire',
  'finance_reject',
  'finance_resume',
  'cancel',
] as const;
export type QuoteMove = (typeof QUOTE_MOVES)[number];
