import type { QuoteFeedbackAction } from '../shared/model';
import type { MoveFlags, QuoteMove, QuoteStatus } from './quote-machine';

/** Moves of the quote along its table, and what the quote carries besides its status. */
export interface QuoteWork {
  moveQuote(move: QuoteMove, flags?: MoveFlags): Promise<void>;
  /** Several moves one after the other, as moveQuote would make them, written in one statement. */
  moveQuotes(moves: QuoteMove[]): Promise<void>;
  /** Sandbox rewind: sets the quote's status directly (one event, transition reset) when it differs. */
  resetQuote(target: QuoteStatus): Promise<void>;
  setRejectionReason(reason: string | null): Promise<void>;
  addQuoteFeedback(action: QuoteFeedbackAction, text: string | null): Promise<void>;
  /** Ensures one active financing response of this decision. */
  activateFinancingResponse(decision: 'review' | 'accepted'): Promise<void>;
  deactivateFinancingResponses(): Promise<void>;
  /** The case becomes a financing request (the customer accepted the offer). */
  markFinancingRequest(): Promise<void>;
}

/** What other services ask of the partner's quotes. */
export interface QuoteReads {
  /** Whether one of the partner's quotes of this calculation type and duration froze this rental factor (a decimal with 3 places). */
  hasQuoteWithRentalFactor(partnerId: string, rentalFactor: string, term: { calculationType: string; duration: number }): Promise<boolean>;
}
