import { QUOTE_MOVES } from '@rental/proto';
import { OPERATOR_MOVES } from './operations';

describe('the moves an operator may ask for', () => {
  it('when listed, then every move of the table but cancel is there, in its order, the finance moves and start_manual_finance_review needing the approver role', () => {
    expect(OPERATOR_MOVES.map(({ move }) => move)).toEqual(QUOTE_MOVES.filter((move) => move !== 'cancel'));
    expect(OPERATOR_MOVES.filter(({ role }) => role === 'approver').map(({ move }) => move)).toEqual([
      'finance_accept',
      'finance_needs_help',
      'start_manual_finance_review',
      'finance_reject',
      'finance_resume',
    ]);
    expect(new Set(OPERATOR_MOVES.map(({ role }) => role))).toEqual(new Set(['reviewer', 'approver']));
  });
});
