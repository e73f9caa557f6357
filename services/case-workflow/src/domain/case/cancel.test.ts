import { partnerCancelRefusal } from './cancel';
import { CONTRACT_PLACES } from '../contract/contract-machine';
import { QUOTE_STATES } from '../quote/quote-machine';

describe('partner cancel rules', () => {
  it('when the quote is in a regular status and there is no contract, then the partner may cancel', () => {
    const allowed = QUOTE_STATES.filter((state) => partnerCancelRefusal(state, null) === null);
    expect(allowed).toEqual([
      'in_review',
      'review_expired',
      'change_requested',
      'accepted_by_customer',
      'finance_review',
      'manual_finance_review',
      'finance_questions',
      'finance_accepted',
      'completed',
    ]);
  });

  it('when the quote is in_progress, rejected_by_customer, finance_rejected or canceled, then cancel is refused', () => {
    expect(partnerCancelRefusal('in_progress', null)).toBe('The financing case cannot be canceled while its quote is in_progress.');
    expect(partnerCancelRefusal('rejected_by_customer', null)).toBe('The financing case cannot be canceled while its quote is rejected_by_customer.');
    expect(partnerCancelRefusal('finance_rejected', null)).toBe('The financing case cannot be canceled while its quote is finance_rejected.');
    expect(partnerCancelRefusal('canceled', 'canceled')).toBe('The financing case is already canceled.');
  });

  it('when the contract is signed or later, then cancel is refused; waiting for signing or canceled it is not', () => {
    const refused = CONTRACT_PLACES.filter((place) => partnerCancelRefusal('finance_accepted', place) !== null);
    expect(refused).toEqual(['signed', 'post_processing_required', 'delivery_approved', 'invoice_checked', 'completed']);
  });
});
