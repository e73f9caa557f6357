import {
  QUOTE_MOVES,
  QUOTE_STATES,
  QUOTE_TRANSITIONS,
  QuoteMove,
  QuoteStatus,
  UNDER_FINANCE_REVIEW,
  nextQuoteStatus,
  quotePath,
  statesAllowing,
} from './quote-machine';

/** The specification's table, written out once more by hand: the implementation must match it exactly. */
const SPECIFIED: [QuoteStatus, QuoteMove, QuoteStatus][] = [
  ['in_progress', 'finalize', 'in_review'],
  ['review_expired', 'reactivate', 'in_review'],
  ['change_requested', 'apply_changes', 'in_review'],
  ['in_review', 'accept_by_customer', 'accepted_by_customer'],
  ['in_progress', 'accept_by_customer', 'accepted_by_customer'],
  ['accepted_by_customer', 'request_finance_review', 'finance_review'],
  ['in_progress', 'request_finance_review_direct', 'finance_review'],
  ['finance_review', 'finance_accept', 'finance_accepted'],
  ['manual_finance_review', 'finance_accept', 'finance_accepted'],
  ['finance_questions', 'finance_accept', 'finance_accepted'],
  ['finance_accepted', 'complete', 'completed'],
  ['in_review', 'request_changes', 'change_requested'],
  ['finance_review', 'finance_needs_help', 'finance_questions'],
  ['manual_finance_review', 'finance_needs_help', 'finance_questions'],
  ['accepted_by_customer', 'start_manual_finance_review', 'manual_finance_review'],
  ['in_progress', 'start_manual_finance_review', 'manual_finance_review'],
  ['in_review', 'reject_by_customer', 'rejected_by_customer'],
  ['in_review', 'expire', 'review_expired'],
  ['finance_review', 'finance_reject', 'finance_rejected'],
  ['manual_finance_review', 'finance_reject', 'finance_rejected'],
  ['finance_questions', 'finance_reject', 'finance_rejected'],
  ['finance_rejected', 'finance_resume', 'finance_accepted'],
  ...QUOTE_STATES.filter((state) => state !== 'canceled').map((state): [QuoteStatus, QuoteMove, QuoteStatus] => [state, 'cancel', 'canceled']),
];

const OVERRIDE_ONLY: [QuoteStatus, QuoteMove, QuoteStatus] = ['finance_rejected', 'finance_accept', 'finance_accepted'];

function outcome(from: QuoteStatus, move: QuoteMove, financeRejectedOverride: boolean): QuoteStatus | 'refused' {
  try {
    return nextQuoteStatus(from, move, { financeRejectedOverride });
  } catch (error) {
    expect(error).toMatchObject({ kind: 'rule_violation', code: 'quote.transition_not_allowed' });
    return 'refused';
  }
}

describe('quote state machine', () => {
  it('when the table is compared with the specification, then it holds every listed move and no other', () => {
    expect(QUOTE_TRANSITIONS.length).toBe(SPECIFIED.length + 1);
    expect(QUOTE_STATES).toHaveLength(13);
    expect(QUOTE_TRANSITIONS.filter((transition) => transition.move === 'cancel')).toHaveLength(12);
  });

  it.each([false, true])(
    'when every (state, move) pair is tried (override %s), then exactly the listed moves succeed and every other pair is refused',
    (override) => {
      let allowed = 0;
      let refused = 0;
      for (const from of QUOTE_STATES) {
        for (const move of QUOTE_MOVES) {
          const listed =
            SPECIFIED.find(([state, name]) => state === from && name === move) ??
            (override && OVERRIDE_ONLY[0] === from && OVERRIDE_ONLY[1] === move ? OVERRIDE_ONLY : undefined);
          const result = outcome(from, move, override);
          expect([from, move, result]).toEqual([from, move, listed ? listed[2] : 'refused']);
          if (listed) allowed += 1;
          else refused += 1;
        }
      }
      expect(allowed).toBe(SPECIFIED.length + (override ? 1 : 0));
      expect(allowed + refused).toBe(13 * 16);
    },
  );

  it('when a quote is finance_rejected, then finance_accept needs the override and finance_resume does not', () => {
    expect(outcome('finance_rejected', 'finance_accept', false)).toBe('refused');
    expect(outcome('finance_rejected', 'finance_accept', true)).toBe('finance_accepted');
    expect(outcome('finance_rejected', 'finance_resume', false)).toBe('finance_accepted');
  });

  it('when a quote is canceled, then no move at all leaves it', () => {
    for (const move of QUOTE_MOVES) {
      expect(outcome('canceled', move, true)).toBe('refused');
    }
  });

  it('when a move is refused, then the 422 names the state and the move', () => {
    expect(() => nextQuoteStatus('completed', 'finalize')).toThrow('The quote is completed; the move finalize is not allowed from there.');
  });
});

describe('shortest path over the table', () => {
  it('when the target is the current state, then nothing is to be done', () => {
    expect(quotePath('finance_review', 'finance_review')).toEqual([]);
  });

  it('when the target lies ahead, then the shortest sequence of moves is chosen', () => {
    expect(quotePath('in_progress', 'finance_review')).toEqual(['request_finance_review_direct']);
    expect(quotePath('in_progress', 'finance_accepted')).toEqual(['request_finance_review_direct', 'finance_accept']);
    expect(quotePath('in_progress', 'finance_rejected')).toEqual(['request_finance_review_direct', 'finance_reject']);
    expect(quotePath('accepted_by_customer', 'finance_review')).toEqual(['request_finance_review']);
    expect(quotePath('in_progress', 'change_requested')).toEqual(['finalize', 'request_changes']);
    expect(quotePath('finance_questions', 'finance_accepted')).toEqual(['finance_accept']);
  });

  it('when the target is reached only through the override, then the resume move is taken instead', () => {
    expect(quotePath('finance_rejected', 'finance_accepted')).toEqual(['finance_resume']);
  });

  it('when the target cannot be reached without cancel or override, then there is no path', () => {
    expect(quotePath('finance_review', 'manual_finance_review')).toBeUndefined();
    expect(quotePath('completed', 'finance_accepted')).toBeUndefined();
    expect(quotePath('canceled', 'finance_review')).toBeUndefined();
    expect(quotePath('in_progress', 'canceled')).toBeUndefined();
  });

  it('when any path is found, then each of its moves is allowed by the table in turn', () => {
    for (const from of QUOTE_STATES) {
      for (const to of QUOTE_STATES) {
        const moves = quotePath(from, to);
        if (!moves) continue;
        const reached = moves.reduce<QuoteStatus>((state, move) => nextQuoteStatus(state, move), from);
        expect([from, to, reached]).toEqual([from, to, to]);
        expect(moves).not.toContain('cancel');
      }
    }
  });
});

describe('states read from the table', () => {
  it('when the lender may decide, then the quote is in finance_review, manual_finance_review or finance_questions, and accepting is allowed there too', () => {
    expect(UNDER_FINANCE_REVIEW).toEqual(['finance_review', 'manual_finance_review', 'finance_questions']);
    expect(statesAllowing('finance_accept')).toEqual(UNDER_FINANCE_REVIEW);
  });

  it('when the lender asks questions, then only a quote under review without open questions moves to finance_questions', () => {
    expect(statesAllowing('finance_needs_help')).toEqual(['finance_review', 'manual_finance_review']);
  });
});
