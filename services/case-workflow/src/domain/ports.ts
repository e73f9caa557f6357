import type { ProblemDocument } from '@rental/problem';
import type { ContractMove, ContractPlace, EnvelopeStatus } from './contract-machine';
import type {
  Address, AuditContext, AuthorizedPerson, Contract, ContractDetails, Customer, EnvelopeRecipient, FinancingCase, HistoryEntry, Quote, QuoteDetails, QuoteFeedbackAction, QuoteItem, QuoteTermsInput, RequestedItem, SignatureEnvelope,
} from './model';
import type { MoveFlags, QuoteMove, QuoteStatus } from './quote-machine';

export interface CallContext {
  partnerId: string;
  requestId?: string;
}

/** Where a case came from; a repeated creation from the same source returns the first case. */
export type CaseSource = { cartId: string } | { quoteRequestId: string };

export interface NewCase {
  partnerId: string;
  source: CaseSource;
  financingRequest: boolean;
  quoteNumber: string | null;
  customer: Customer;
  shippingAddress: Address;
  terms: QuoteTermsInput;
  items: QuoteItem[];
  calculationId: string | null;
  contactPhone: string | null;
  contactEmail: string | null;
  printPlanTerms: Record<string, unknown> | null;
}

export interface NewAuthorizedPerson {
  firstName: string;
  lastName: string;
  email: string;
  soloSigneePermitted: boolean;
}

/**
 * The work on one case inside one database transaction: the case, its quote and its contract
 * are locked (SELECT ... FOR UPDATE) for the whole work. Every status change goes through a
 * move of the state machines and writes exactly one outbox event in the same transaction; the
 * members below always show the state after the changes made so far.
 */
export interface CaseTransaction {
  readonly financingCase: FinancingCase;
  readonly quote: Quote;
  readonly contract: Contract | null;
  readonly envelope: SignatureEnvelope | null;
  moveQuote(move: QuoteMove, flags?: MoveFlags): Promise<void>;
  /** Sandbox rewind: sets the quote's status directly (one event, transition reset) when it differs. */
  resetQuote(target: QuoteStatus): Promise<void>;
  /** A contract at wait_for_signing (event: create, from new). */
  createContract(): Promise<Contract>;
  moveContract(move: ContractMove): Promise<void>;
  /** Sandbox rewind: the contract directly at `target`, created when missing (one event, transition reset). */
  resetContract(target: ContractPlace): Promise<void>;
  /** Sandbox rewind: contract and envelope removed, announced by one contract event (toStatus removed, transition reset). */
  deleteContract(): Promise<void>;
  /** A new envelope, sent, replacing an earlier one of the contract. */
  sendEnvelope(recipients: EnvelopeRecipient[]): Promise<SignatureEnvelope>;
  setEnvelopeStatus(status: EnvelopeStatus, declineReason?: string | null): Promise<void>;
  deleteEnvelope(): Promise<void>;
  setRejectionReason(reason: string | null): Promise<void>;
  addQuoteFeedback(action: QuoteFeedbackAction, text: string | null): Promise<void>;
  replaceAuthorizedPersons(persons: NewAuthorizedPerson[]): Promise<AuthorizedPerson[]>;
  /** Ensures one active financing response of this decision. */
  activateFinancingResponse(decision: 'review' | 'accepted'): Promise<void>;
  deactivateFinancingResponses(): Promise<void>;
  /** Records a pending lender submission of the quote (the worker submits it). */
  queueLenderSubmission(): Promise<void>;
  /** false when another contract of the partner has the number. */
  setContractNumber(contractNumber: string): Promise<boolean>;
  /**
   * A change that is not a status move (a note, a document review, a lender submission, …) in the
   * case's history, by the transaction's actor. Status moves are recorded by themselves.
   */
  recordHistory(action: string, entry?: { reason?: string | null; details?: Record<string, unknown> | null }): Promise<void>;
}

export interface CreatedCaseResult {
  financingCase: FinancingCase;
  quoteNumber: string;
  created: boolean;
}

export interface CaseStore {
  findCase(id: string): Promise<FinancingCase | undefined>;
  /** Newest first. */
  listCases(partnerId: string, limit: number, offset: number): Promise<FinancingCase[]>;
  findQuoteDetails(quoteId: string): Promise<QuoteDetails | undefined>;
  findContract(contractId: string): Promise<ContractDetails | undefined>;
  findCaseBySource(partnerId: string, source: CaseSource): Promise<{ financingCase: FinancingCase; quoteNumber: string } | undefined>;
  /** Whether one of the partner's quotes froze this rental factor (a decimal with 3 places). */
  hasQuoteWithRentalFactor(partnerId: string, rentalFactor: string): Promise<boolean>;
  /**
   * Creates the case and its quote (event: create) and runs `work` in the same transaction.
   * A case that exists for the source already is returned with created false; a quote number
   * taken by another quote of the partner is a conflict.
   */
  createCase(newCase: NewCase, work: (transaction: CaseTransaction) => Promise<void>, audit: AuditContext): Promise<CreatedCaseResult>;
  /**
   * Runs `work` in one transaction with the case locked; undefined when there is no such case.
   * Every change it makes is recorded in the case's history as made by `audit.actor`.
   */
  inCase<T>(financingCaseId: string, work: (transaction: CaseTransaction) => Promise<T>, audit: AuditContext): Promise<{ result: T } | undefined>;
  /** The case's history, oldest first. */
  listHistory(financingCaseId: string): Promise<HistoryEntry[]>;
}

/** The calls case-workflow makes of the documents service. */
export interface DocumentsPort {
  /** The partner-visible requested items of each of the partner's cases, in one call; a case without items maps to []. */
  listRequestItemsOfCases(financingCaseIds: string[], context: CallContext): Promise<Map<string, RequestedItem[]>>;
  createRequestItems(financingCaseId: string, itemType: RequestedItem['type'], items: { label: string; category: string; question: string; optional: boolean }[], context: CallContext): Promise<RequestedItem[]>;
  rejectDocument(financingCaseId: string, documentId: number, reason: string, context: CallContext): Promise<void>;
  /** The problem document a real upload rejected for its type or size gets. */
  describeUploadRejection(financingCaseId: string, itemId: number, reason: 'type' | 'size', context: CallContext): Promise<ProblemDocument>;
  attachSignedContract(financingCaseId: string, contractId: string, context: CallContext): Promise<void>;
  resetCase(financingCaseId: string, context: CallContext): Promise<void>;
}

export interface LenderSubmission {
  id: number;
  quoteId: string;
  financingCaseId: string;
  partnerId: string;
  lenderId: string | null;
  attempts: number;
}

/** The lender's intake; a failure throws and the submission is retried later. */
export interface LenderAdapter {
  submit(submission: LenderSubmission): Promise<{ reference: string }>;
}

export interface LenderSubmissionQueue {
  /** Due submissions (pending, or failed with their retry time passed), leased to this worker; attempts already counted. */
  claimDue(now: Date, limit: number): Promise<LenderSubmission[]>;
  markSubmitted(id: number, reference: string, at: Date): Promise<void>;
  markFailed(id: number, error: string, retryAt: Date, at: Date): Promise<void>;
}

/** Who may sign for the customer, as the lender stated it. */
export interface SigningStatement {
  signatories: { firstName: string; lastName: string; email: string | null }[];
  /** How many of them must sign together. */
  minimumSigners: number;
}

export interface SigningStatementSource {
  /** The lender's statement for the case, or null when the lender issued none. */
  statementFor(financingCase: FinancingCase): Promise<SigningStatement | null>;
}
