import type { OpsQueueFilters } from '@rental/proto';
import type { QuoteStatus } from '../quote/quote-machine';
import type { ContractPlace } from '../contract/contract-machine';

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
 * The approval team's operations on the data case-workflow owns: the queue, the case view and
 * the moves of quotes and contracts. The back office checks the operator's roles before it
 * calls; the rules of the tables are checked here, next to the data.
 */

export interface OpsQueueEntry {
  id: string;
  caseNumber: string;
  quoteNumber: string;
  partnerId: string;
  status: QuoteStatus;
  contractStatus: ContractPlace | null;
  lenderSubmissionStatus: string | null;
  financingNumber: string | null;
  inReviewSince: string | null;
  statusUpdatedAt: string;
  customerCompany: string | null;
}

export interface LenderSubmissionView {
  id: number;
  lenderId: string | null;
  status: string;
  attempts: number;
  lastError: string | null;
  reference: string | null;
  createdAt: string;
  submittedAt: string | null;
}
