import type { ProblemDocument } from '@rental/problem';
import type { TraceOrigin } from '@rental/logger';
import type { ContractMove, ContractPlace, EnvelopeStatus } from '../contract/contract-machine';
import type {
  Actor,
  Address,
  AuditContext,
  AuthorizedPerson,
  Contract,
  ContractDetails,
  Customer,
  EnvelopeRecipient,
  FinancingCase,
  HistoryEntry,
  Quote,
  QuoteDetails,
  QuoteFeedbackAction,
  QuoteItem,
  QuoteTermsInput,
  RequestedItem,
  SignatureEnvelope,
} from './model';
import type { MoveFlags, QuoteMove, QuoteStatus } from '../quote/quote-machine';
import type { OpsQueueFilters } from '@rental/proto';
import type { LenderSubmissionView, OpsQueueEntry } from '../operator/operator';

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
  /** The case's clock, which stamps every change: the wall clock plus the case's sandbox offset, or the pinned time. */
  now(): Date;
  /** Sandbox clock: the changes that follow happen at `at` (an effect's own time); null: the case's clock again. */
  pinClock(at: Date | null): void;
  /** Sandbox clock: the case's total offset from the wall clock. */
  setClockOffset(offsetMs: number): Promise<void>;
  /** The reason the changes that follow are recorded with in the case's history (default: the audit's). */
  setAuditReason(reason: string | null): void;
  /** The earliest end after `after` of the case's customer links that still work, or null. */
  nextCustomerLinkExpiry(after: Date): Promise<Date | null>;
  moveQuote(move: QuoteMove, flags?: MoveFlags): Promise<void>;
  /** Several moves one after the other, as moveQuote would make them, written in one statement. */
  moveQuotes(moves: QuoteMove[]): Promise<void>;
  /** Sandbox rewind: sets the quote's status directly (one event, transition reset) when it differs. */
  resetQuote(target: QuoteStatus): Promise<void>;
  /** A contract at wait_for_signing (event: create, from new); `id` when the provider was told it before. */
  createContract(id?: string): Promise<Contract>;
  moveContract(move: ContractMove): Promise<void>;
  /** Sandbox rewind: the contract directly at `target`, created when missing (one event, transition reset). */
  resetContract(target: ContractPlace): Promise<void>;
  /** Sandbox rewind: contract and envelope removed, announced by one contract event (toStatus removed, transition reset). */
  deleteContract(): Promise<void>;
  /** A new envelope, sent, replacing an earlier one of the contract; `id` when the provider holds it under that id. */
  sendEnvelope(recipients: EnvelopeRecipient[], id?: string): Promise<SignatureEnvelope>;
  setEnvelopeStatus(status: EnvelopeStatus, declineReason?: string | null): Promise<void>;
  deleteEnvelope(): Promise<void>;
  setRejectionReason(reason: string | null): Promise<void>;
  addQuoteFeedback(action: QuoteFeedbackAction, text: string | null): Promise<void>;
  replaceAuthorizedPersons(persons: NewAuthorizedPerson[]): Promise<AuthorizedPerson[]>;
  /** The quote's authorized persons, in the order given. */
  authorizedPersons(): Promise<AuthorizedPerson[]>;
  /** Ensures one active financing response of this decision. */
  activateFinancingResponse(decision: 'review' | 'accepted'): Promise<void>;
  deactivateFinancingResponses(): Promise<void>;
  /** The case becomes a financing request (the customer accepted the offer). */
  markFinancingRequest(): Promise<void>;
  /** Records a pending lender submission of the quote (the worker submits it); the case's earlier submissions are superseded and never attempted again. */
  queueLenderSubmission(): Promise<void>;
  /** The case's latest lender submission, locked until this transaction ends so that no worker claims it meanwhile; undefined: none. */
  lockLatestLenderSubmission(): Promise<LockedLenderSubmission | undefined>;
  /** The lender's statement of who may sign (start-esignature rule 4); null: none. */
  setSigningStatement(statement: SigningStatement | null): Promise<void>;
  /** The lender's reference as the quote's financingNumber. */
  setFinancingNumber(reference: string): Promise<void>;
  /** Records that a callback was applied in this transaction; false when it was applied before. */
  markCallbackApplied(sender: string, webhookId: string): Promise<boolean>;
  /** The case's envelopes at the signing provider that are requested or accepted (not being voided), locked until the transaction ends. */
  providerEnvelopes(): Promise<ProviderEnvelope[]>;
  /** Reserves an envelope before the provider is asked; its first attempt may be on its way until `requestedUntil`. */
  reserveProviderEnvelope(reservation: { envelopeId: string; contractId: string; persons: NewAuthorizedPerson[]; requestedUntil: Date }): Promise<void>;
  /** One more attempt of a requested envelope's request (the same envelope id), on its way until `requestedUntil`. */
  retryProviderEnvelope(envelopeId: string, requestedUntil: Date): Promise<void>;
  /** The provider took the requested envelope: it is the contract's envelope from now on. */
  acceptProviderEnvelope(envelopeId: string, providerEnvelopeId: string | null): Promise<void>;
  /** The provider refused the envelope's only request: nothing of it is left to void. */
  forgetProviderEnvelope(envelopeId: string): Promise<void>;
  /** The envelope is voided at the provider by the void worker, from `dueAt` on; woken once the transaction committed. */
  queueEnvelopeVoid(envelopeId: string, reason: EnvelopeVoidReason, dueAt: Date): Promise<void>;
  setProviderEnvelopeId(envelopeId: string, providerEnvelopeId: string): Promise<void>;
  /** false when another contract of the partner has the number. */
  setContractNumber(contractNumber: string): Promise<boolean>;
  /**
   * A change that is not a status move (a note, a document review, a lender submission, …) in the
   * case's history, by the transaction's actor. Status moves are recorded by themselves.
   */
  recordHistory(action: string, entry?: { reason?: string | null; details?: Record<string, unknown> | null; actor?: Actor }): Promise<void>;
  /**
   * A new customer link of the quote (only its hash is stored). With `replace`, every earlier
   * link of the case stops working (410); a reminder's copy leaves them working.
   */
  issueCustomerLink(link: NewCustomerLink): Promise<IssuedCustomerLink>;
  /** The customer was mailed about the review now: the reminder clock starts again. */
  markReviewMailed(): Promise<void>;
  /** One more reminder: reminderCount + 1 and lastReminderAt now (no status change, no event). */
  recordReminder(): Promise<void>;
  /** A mail through the outbox, sent by notifications once this transaction committed. */
  requestMail(mail: MailRequest): Promise<void>;
  /** The newest working link with actions (what a reminder copies), or null. */
  currentCustomerLink(): Promise<{ email: string | null; expiresAt: string } | null>;
  /** true the first time the clock notices this item overdue, false ever after. */
  claimOverdueNotice(item: { type: string; id: number }): Promise<boolean>;
}

export interface NewCustomerLink {
  email: string | null;
  viewOnly: boolean;
  replace: boolean;
  /** Absolute end; the default is now + CUSTOMER_LINK_TTL, decided by the caller. */
  expiresAt: Date;
}

export interface IssuedCustomerLink {
  /** The token in plain text: only in the answer and the mail, never stored. */
  token: string;
  expiresAt: string;
}

export interface MailRequest {
  kind: string;
  recipient: { partnerId: string } | { email: string };
  subject: string;
  text: string;
}

/** A customer link as stored. */
export interface CustomerLink {
  id: number;
  financingCaseId: string;
  quoteId: string;
  email: string | null;
  viewOnly: boolean;
  createdAt: string;
  expiresAt: string;
  invalidatedAt: string | null;
  /** The case's sandbox clock offset: the link's end is compared with the case's clock. */
  clockOffsetMs: number;
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
  /** The quote and its items only (what a lender application carries), two reads instead of findQuoteDetails' six. */
  findQuoteWithItems(quoteId: string): Promise<Pick<QuoteDetails, 'quote' | 'items'> | undefined>;
  findContract(contractId: string): Promise<ContractDetails | undefined>;
  findCaseBySource(partnerId: string, source: CaseSource): Promise<{ financingCase: FinancingCase; quoteNumber: string } | undefined>;
  /** Whether one of the partner's quotes of this calculation type and duration froze this rental factor (a decimal with 3 places). */
  hasQuoteWithRentalFactor(partnerId: string, rentalFactor: string, term: { calculationType: string; duration: number }): Promise<boolean>;
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
  /** The case and contract of an envelope requested at the signing provider. */
  findProviderEnvelope(envelopeId: string): Promise<{ financingCaseId: string; contractId: string } | undefined>;
  /** Whether a callback of this sender and webhook-id was applied (its change committed). */
  isCallbackApplied(sender: string, webhookId: string): Promise<boolean>;
  /** Records a callback as applied on its own, after work done outside the case's transaction; false when it was recorded before. */
  markCallbackApplied(sender: string, webhookId: string): Promise<boolean>;
  findSigningStatement(financingCaseId: string): Promise<SigningStatement | null>;
  findCustomerLink(tokenHash: string): Promise<CustomerLink | undefined>;
}

export interface NewRequestItem {
  label: string;
  category: string;
  question: string;
  optional: boolean;
  /** Who is asked: partner (default) or customer. */
  targetAudience?: 'partner' | 'customer';
  dueAt?: Date | null;
}

/** The calls case-workflow makes of the documents service. */
export interface DocumentsPort {
  /** The partner-visible requested items of each of the partner's cases, in one call; a case without items maps to []. */
  listRequestItemsOfCases(financingCaseIds: string[], context: CallContext): Promise<Map<string, RequestedItem[]>>;
  /** With `creationKey`, a repeat for the case creates nothing and answers the items the first call created. */
  createRequestItems(
    financingCaseId: string,
    itemType: RequestedItem['type'],
    items: NewRequestItem[],
    context: CallContext,
    creationKey?: string,
  ): Promise<RequestedItem[]>;
  rejectDocument(financingCaseId: string, documentId: number, reason: string, context: CallContext): Promise<void>;
  /** The problem document a real upload rejected for its type or size gets. */
  describeUploadRejection(financingCaseId: string, itemId: number, reason: 'type' | 'size', context: CallContext): Promise<ProblemDocument>;
  attachSignedContract(financingCaseId: string, contractId: string, context: CallContext): Promise<void>;
  /** Stores the signing provider's PDF byte for byte as the case's partner-visible signed contract. */
  storeSignedContract(financingCaseId: string, contractId: string, document: { fileName: string; content: Buffer }, context: CallContext): Promise<void>;
  resetCase(financingCaseId: string, context: CallContext): Promise<void>;
  /** The customer-audience requested items of the case (the customer's page). */
  listCustomerRequestItems(financingCaseId: string, context: CallContext): Promise<RequestedItem[]>;
  /** Stores the customer's answer to a pending customer-audience information request of the case (404 another's, 422 not pending). */
  answerCustomerInformation(financingCaseId: string, informationId: number, response: string, context: CallContext): Promise<void>;
  /** Required, pending partner- or customer-audience items due before `dueBefore` that `stage` has not marked yet. */
  listOverdueItems(dueBefore: Date, stage: OverdueStage, limit: number): Promise<OverdueItem[]>;
  /** The same for one case (its own clock decides `dueBefore`), at most 1,000. */
  listOverdueItemsOfCase(financingCaseId: string, dueBefore: Date, stage: OverdueStage, context: CallContext): Promise<OverdueItem[]>;
  markOverdueItems(itemIds: number[], stage: OverdueStage, at: Date): Promise<void>;
}

/** notice: the partner is mailed once; cancel: the grace is over and the case is canceled. */
export type OverdueStage = 'notice' | 'cancel';

export interface OverdueItem {
  id: number;
  type: RequestedItem['type'];
  financingCaseId: string;
  partnerId: string;
  label: string;
  dueAt: string;
  targetAudience: string;
}

export interface LenderSubmission extends TraceOrigin {
  id: number;
  /** The application's id towards the lender: the webhook-id of every attempt. */
  applicationId: string;
  quoteId: string;
  financingCaseId: string;
  partnerId: string;
  lenderId: string | null;
  attempts: number;
}

/** The lender's intake; a failure throws and the submission is retried later. */
export interface LenderAdapter {
  submit(submission: LenderSubmission): Promise<{ reference: string }>;
  /** The approval team's verified answers to the lender's questions, for the application with `reference`. */
  sendAttachments(lenderId: string, reference: string, attachments: LenderAttachments): Promise<void>;
}

export interface LenderAttachments {
  applicationId: string;
  financingCaseId: string;
  items: {
    id: number;
    type: string;
    label: string;
    category: string;
    answer?: string | null;
    documents?: { fileName: string; mimeType: string; contentBase64: string }[];
  }[];
}

export interface LenderSubmissionQueue {
  /** Due submissions (pending, or failed with their retry time passed; never a superseded one), leased to this worker; attempts already counted. */
  claimDue(now: Date, limit: number): Promise<LenderSubmission[]>;
  /** When the next waiting submission falls due (a retry), or undefined when none waits. */
  nextDueAt(): Promise<Date | undefined>;
  markSubmitted(id: number, reference: string, at: Date): Promise<void>;
  markFailed(id: number, error: string, retryAt: Date | null, at: Date): Promise<void>;
}

/** A lender as the seed command loaded it; its secret signs what we send and verifies what it sends. */
export interface Lender {
  id: string;
  name: string;
  /** null: the lender simulator of the local stack. */
  intakeUrl: string | null;
  webhookSecret: string;
}

export interface LenderDirectory {
  findLender(id: string): Promise<Lender | undefined>;
}

/** The latest submission of a case to its lender, for the approval team's calls. */
export interface LatestSubmission {
  id: number;
  applicationId: string;
  lenderId: string | null;
  status: 'pending' | 'submitted' | 'failed';
  reference: string | null;
}

/** The latest submission of a case as its transaction holds it. */
export interface LockedLenderSubmission {
  applicationId: string;
  status: LatestSubmission['status'];
  /** A worker holds its lease: an attempt is on its way to the lender and its outcome not recorded yet. */
  inFlight: boolean;
}

/** What a lender needs to decide: the case, its frozen quote and the customer's credit check. */
export interface ApplicationSource {
  /** The submission's credit check, made once and kept; null until made. */
  creditCheckOf(submissionId: number): Promise<CreditCheck | null>;
  keepCreditCheck(submissionId: number, check: CreditCheck): Promise<void>;
  latestSubmission(financingCaseId: string): Promise<LatestSubmission | undefined>;
}

export interface CreditCheck {
  provider: string;
  reference: string;
  /** pass: no objection; review: the lender should look closer; fail: objections known. */
  outcome: 'pass' | 'review' | 'fail';
  score: number | null;
  checkedAt: string;
}

/** The credit bureau that checks a customer before a financing request goes to the lender. */
export interface CreditBureau {
  check(customer: Customer, context: { financingCaseId: string }): Promise<CreditCheck>;
}

/** The partner's display name, from pricing's partner profile; null when it cannot be told. */
export interface PartnerNames {
  nameOf(partnerId: string): Promise<string | null>;
}

/** Standard Webhooks signing and verification with a `whsec_` secret. */
export interface SignedMessages {
  /** The webhook-id, webhook-timestamp and webhook-signature headers of `body`. */
  headers(secret: string, id: string, body: string): Record<string, string>;
  /** false for a missing or wrong signature, or a timestamp more than 5 minutes away. */
  verify(secret: string, body: string, headers: Record<string, string | undefined>): boolean;
}

/** The signing provider behind start-esignature in production. */
export interface SigningProvider {
  /**
   * Asks for the envelope (its id is the request's webhook-id, the same on every attempt, so the
   * provider recognises a repeat): accepted on a 2xx (with the provider's id when it gave one),
   * refused on another answer; throws when no answer came in time (the outcome is unknown).
   */
  requestEnvelope(request: EnvelopeRequest): Promise<{ accepted: true; providerEnvelopeId: string | null } | { accepted: false; status: number }>;
  /** Resolves once the provider voided the envelope or does not know it (2xx or 404); throws on anything else. */
  voidEnvelope(request: EnvelopeVoidRequest): Promise<void>;
}

export interface EnvelopeVoidRequest {
  envelopeId: string;
  providerEnvelopeId: string | null;
  reason: EnvelopeVoidReason;
}

/**
 * replaced: a start with other persons; abandoned: its request's outcome stayed unknown; not_startable: the case no longer
 * allows the envelope the provider took.
 */
export type EnvelopeVoidReason = 'replaced' | 'abandoned' | 'not_startable';

/** An envelope at the signing provider, as the case's transaction holds it. */
export interface ProviderEnvelope {
  envelopeId: string;
  contractId: string;
  providerEnvelopeId: string | null;
  /** requested: the provider is being asked, or was and its answer was lost; accepted: it is the contract's envelope. */
  state: 'requested' | 'accepted';
  /** The persons the envelope was requested for. */
  persons: NewAuthorizedPerson[];
  requestAttempts: number;
  /** Until then an attempt of the request may be on its way to the provider. */
  requestedUntil: Date | null;
}

/** A void the worker owes the provider. */
export interface EnvelopeVoid extends TraceOrigin {
  envelopeId: string;
  financingCaseId: string;
  providerEnvelopeId: string | null;
  reason: EnvelopeVoidReason;
  /** Attempts so far, this one counted. */
  attempts: number;
}

/** Voids as a leased work queue, like lender submissions: replicas never void one twice at a time. */
export interface EnvelopeVoidQueue {
  /** Due voids, and requested envelopes whose request stayed unanswered past `requestedUntil` (abandoned), leased to this worker. */
  claimDue(now: Date, limit: number): Promise<EnvelopeVoid[]>;
  /** When the next void falls due, or undefined. */
  nextDueAt(): Promise<Date | undefined>;
  /** Done (2xx or 404), in the case's history by the system. */
  markVoided(envelopeId: string, at: Date): Promise<void>;
  /** Failed; tried again at `retryAt`, or never again (null). */
  markVoidFailed(envelopeId: string, error: string, retryAt: Date | null, at: Date): Promise<void>;
}

export interface EnvelopeRequest {
  envelopeId: string;
  financingCaseId: string;
  contractId: string;
  contractNumber: string | null;
  signers: { firstName: string; lastName: string; email: string }[];
  document: { fileName: string; content: Buffer };
}

/** Renders the contract to be signed as a PDF. */
export interface ContractRenderer {
  render(contract: ContractToSign): Promise<Buffer>;
}

export interface ContractToSign {
  caseNumber: string;
  contractNumber: string | null;
  quote: Quote;
  items: QuoteItem[];
  signers: { firstName: string; lastName: string; email: string }[];
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

/** The reads that find what is due; the changes themselves go through the locked case. */
export interface ClockQueries {
  /** Cases (with their partner) whose quote is in_review, below the reminder maximum, last mailed at or before the cutoff. */
  dueReminders(mailedBefore: Date, reminderMax: number, limit: number): Promise<{ financingCaseId: string; partnerId: string }[]>;
  /** Cases whose quote is in_review since at or before the cutoff. */
  dueExpiries(inReviewBefore: Date, limit: number): Promise<string[]>;
}

/** The reads of the back office that no partner-scoped read answers. */
export interface OpsReads {
  /** Cases of every partner, the longest waiting (oldest status change) first. */
  listQueue(filters: OpsQueueFilters): Promise<OpsQueueEntry[]>;
  /** The lender submissions of a case, oldest first. */
  listLenderSubmissions(financingCaseId: string): Promise<LenderSubmissionView[]>;
  /** The case a contract belongs to. */
  caseOfContract(contractId: string): Promise<string | undefined>;
}

/**
 * What a reminder does to its locked case: a case transaction offers it (the sandbox clock), and
 * so does a batch of the scheduler, which writes the reminders of many cases in a few statements.
 */
export type ReminderCase = Pick<
  CaseTransaction,
  'quote' | 'now' | 'setAuditReason' | 'currentCustomerLink' | 'markReviewMailed' | 'issueCustomerLink' | 'recordReminder' | 'recordHistory' | 'requestMail'
>;

export interface ReminderBatches {
  /**
   * Locks those of the cases no one else holds (others are left to a later tick), runs `work` on
   * each and writes what it did in one transaction, by `audit.actor`; the number for which `work`
   * answered true.
   */
  remindAll(financingCaseIds: string[], work: (reminder: ReminderCase) => Promise<boolean>, audit: AuditContext): Promise<number>;
}
