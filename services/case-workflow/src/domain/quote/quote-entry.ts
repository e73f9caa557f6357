import type { QuoteStatus } from './quote-machine';

/** Why the customer's links to the quote stop working. */
export type CustomerLinkEnd = 'canceled' | 'expired';

/** What entering a quote status does besides setting it; the case transaction carries it out with the move. */
export interface QuoteStatusEntry {
  /** A new review starts: its reminders count from the entry (none sent yet, the customer mailed now). Any other status ends the review. */
  startsReview: boolean;
  /** The customer's links stop working with this reason ("document tokens are invalidated"); null: they keep working. */
  endsCustomerLinks: CustomerLinkEnd | null;
}

const ENTRY_EFFECTS: Partial<Record<QuoteStatus, Partial<QuoteStatusEntry>>> = {
  in_review: { startsReview: true },
  canceled: { endsCustomerLinks: 'canceled' },
  review_expired: { endsCustomerLinks: 'expired' },
};

export function quoteStatusEntry(status: QuoteStatus): QuoteStatusEntry {
  return { startsReview: false, endsCustomerLinks: null, ...ENTRY_EFFECTS[status] };
}
