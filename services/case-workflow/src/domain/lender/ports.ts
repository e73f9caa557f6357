import type { TraceOrigin } from '@rental/logger';
import type { Customer } from '../shared/model';

/** The case's submissions to its lender and what the lender's callbacks record. */
export interface LenderWork {
  /** Records a pending lender submission of the quote (the worker submits it); the case's earlier submissions are superseded and never attempted again. */
  queueLenderSubmission(): Promise<void>;
  /** The case's latest lender submission, locked until this transaction ends so that no worker claims it meanwhile; undefined: none. */
  lockLatestLenderSubmission(): Promise<LockedLenderSubmission | undefined>;
  /** The lender's reference as the quote's financingNumber. */
  setFinancingNumber(reference: string): Promise<void>;
  /** Records that a callback was applied in this transaction; false when it was applied before. */
  markCallbackApplied(sender: string, webhookId: string): Promise<boolean>;
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
