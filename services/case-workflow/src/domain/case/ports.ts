import type {
  Actor,
  Address,
  AuditContext,
  Contract,
  ContractDetails,
  Customer,
  FinancingCase,
  HistoryEntry,
  Quote,
  QuoteDetails,
  QuoteItem,
  QuoteTermsInput,
  SignatureEnvelope,
} from '../shared/model';
import type { AppliedCallbacks, MailRequest } from '../shared/ports';
import type { ContractWork } from '../contract/ports';
import type { CustomerLinkReads, CustomerLinkWork } from '../customer/ports';
import type { LenderWork } from '../lender/ports';
import type { QuoteReads, QuoteWork } from '../quote/ports';
import type { SigningReads, SigningWork } from '../signing/ports';

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

export interface CreatedCaseResult {
  financingCase: FinancingCase;
  quoteNumber: string;
  created: boolean;
}

/**
 * A case of the list page as the API prints it, in JSON that Postgres built: the fields before
 * its requested-item lists (`head`) and those after them (`tail`), each as one JSON object.
 */
export interface CaseJson {
  id: string;
  head: string;
  tail: string;
}

/** The partner-facing reads of cases, quotes, contracts and history. */
export interface CaseReads {
  findCase(id: string): Promise<FinancingCase | undefined>;
  /** Newest first. */
  listCases(partnerId: string, limit: number, offset: number): Promise<CaseJson[]>;
  findQuoteDetails(quoteId: string): Promise<QuoteDetails | undefined>;
  /** The quote and its items only (what a lender application carries), two reads instead of findQuoteDetails' six. */
  findQuoteWithItems(quoteId: string): Promise<Pick<QuoteDetails, 'quote' | 'items'> | undefined>;
  findContract(contractId: string): Promise<ContractDetails | undefined>;
  /** The case's history, oldest first. */
  listHistory(financingCaseId: string): Promise<HistoryEntry[]>;
}

/**
 * What a case's creation may do to the new case besides creating it: its first moves, its
 * lender submission, a customer link and mails. Nothing else has seen the case yet, so the store
 * may hold these writes and send them together.
 */
export type CaseCreationWork = Pick<
  CaseTransaction,
  'financingCase' | 'quote' | 'now' | 'moveQuotes' | 'queueLenderSubmission' | 'issueCustomerLink' | 'markReviewMailed' | 'requestMail'
>;

/** A case's creation from its source, once per source. */
export interface CaseCreation {
  /**
   * Creates the case and its quote (event: create) and runs `work` in the same transaction.
   * A case that exists for the source already is returned with created false (and `work` does
   * not run); a quote number taken by another quote of the partner is a conflict.
   */
  createCase(newCase: NewCase, work: (creation: CaseCreationWork) => Promise<void>, audit: AuditContext): Promise<CreatedCaseResult>;
}

/** The locked case: every change to an existing case goes through it. */
export interface CaseLocks {
  /**
   * Runs `work` in one transaction with the case locked; undefined when there is no such case.
   * Every change it makes is recorded in the case's history as made by `audit.actor`.
   */
  inCase<T>(financingCaseId: string, work: (transaction: CaseTransaction) => Promise<T>, audit: AuditContext): Promise<{ result: T } | undefined>;
}

/** The data-access side of cases: the union of the store's roles, which the repository implements in one class. */
export interface CaseStore extends CaseReads, CaseCreation, CaseLocks, AppliedCallbacks, QuoteReads, SigningReads, CustomerLinkReads {}

/** The reads that find what is due; the changes themselves go through the locked case. */
export interface ClockQueries {
  /** Cases (with their partner) whose quote is in_review, below the reminder maximum, last mailed at or before the cutoff. */
  dueReminders(mailedBefore: Date, reminderMax: number, limit: number): Promise<{ financingCaseId: string; partnerId: string }[]>;
  /** Cases whose quote is in_review since at or before the cutoff. */
  dueExpiries(inReviewBefore: Date, limit: number): Promise<string[]>;
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

/** The locked case as it stands after the changes made so far, its clock and its history. */
export interface CaseRecord {
  readonly financingCase: FinancingCase;
  readonly quote: Quote;
  readonly contract: Contract | null;
  readonly envelope: SignatureEnvelope | null;
  /** The case's clock, which stamps every change: the wall clock plus the case's sandbox offset, or the pinned time. */
  now(): Date;
  /** The reason the changes that follow are recorded with in the case's history (default: the audit's). */
  setAuditReason(reason: string | null): void;
  /**
   * A change that is not a status move (a note, a document review, a lender submission, …) in the
   * case's history, by the transaction's actor. Status moves are recorded by themselves.
   */
  recordHistory(action: string, entry?: { reason?: string | null; details?: Record<string, unknown> | null; actor?: Actor }): Promise<void>;
  /** A mail through the outbox, sent by notifications once this transaction committed. */
  requestMail(mail: MailRequest): Promise<void>;
}

/** The sandbox clock and the scheduler's clock on the locked case. */
export interface CaseClockWork {
  /** Sandbox clock: the changes that follow happen at `at` (an effect's own time); null: the case's clock again. */
  pinClock(at: Date | null): void;
  /** Sandbox clock: the case's total offset from the wall clock. */
  setClockOffset(offsetMs: number): Promise<void>;
  /** true the first time the clock notices this item overdue, false ever after. */
  claimOverdueNotice(item: { type: string; id: number }): Promise<boolean>;
}

/**
 * The work on one case inside one database transaction: the case, its quote and its contract
 * are locked (SELECT ... FOR UPDATE) for the whole work. Every status change goes through a
 * move of the state machines and writes exactly one outbox event in the same transaction; the
 * members below always show the state after the changes made so far.
 */
export interface CaseTransaction extends CaseRecord, CaseClockWork, QuoteWork, ContractWork, SigningWork, CustomerLinkWork, LenderWork {}
