import type { OpsQueueFilters } from '@rental/proto';
import type { Operator } from './model';

/** Who made a change, as case-workflow records it. */
export interface Actor {
  type: 'operator';
  id: string;
  name: string;
}

export interface QueueEntry {
  id: string;
  caseNumber: string;
  quoteNumber: string;
  partnerId: string;
  status: string;
  contractStatus: string | null;
  lenderSubmissionStatus: string | null;
  financingNumber: string | null;
  inReviewSince: string | null;
  statusUpdatedAt: string;
}

/** case-workflow's case view as it composes it: case, quote, contract, envelope, lender submissions, history. */
export interface CaseRecord {
  financingCaseId: string;
  partnerId: string;
  status: string;
  view: Record<string, unknown> & {
    quote: { financingNumber: string | null; lenderSubmissionStatus: string | null };
    lenderSubmissions: { status: string }[];
  };
}

export type QuoteMoveRequest = { kind: 'transition'; transition: string } | { kind: 'override' } | { kind: 'cancel' };

/** What case-workflow does for the approval team; it checks the rules of its tables. */
export interface CaseWorkflowPort {
  queue(filters: OpsQueueFilters): Promise<QueueEntry[]>;
  caseRecord(financingCaseId: string): Promise<CaseRecord>;
  moveQuote(financingCaseId: string, move: QuoteMoveRequest, reason: string | null, actor: Actor): Promise<CaseRecord>;
  moveContract(contractId: string, to: string, reason: string | null, actor: Actor): Promise<CaseRecord>;
  /** The entry, and the mail to the case's partner when one is given, in one transaction of the case's owner. */
  recordHistory(...entry: HistoryEntry): Promise<void>;
}

/** A change of a case that is not a status move (review, request, note, callback request), as its history keeps it. */
export type HistoryEntry = [
  financingCaseId: string,
  action: string,
  reason: string | null,
  details: Record<string, unknown> | null,
  actor: Actor,
  partnerMail?: PartnerMail,
];

export interface ItemReference {
  type: 'document' | 'fill_and_return' | 'information';
  id: number;
}

export interface NewRequest {
  type: 'document' | 'fill_and_return' | 'information';
  label: string;
  category: string;
  question: string;
  optional: boolean;
  targetAudience: 'partner' | 'customer' | 'operator';
  dueAt: string;
  template: { fileName: string; content: Buffer } | null;
}

export interface ReviewedDocument {
  documentId: number;
  financingCaseId: string;
  partnerId: string;
  itemId: number | null;
  itemLabel: string | null;
  originalName: string;
}

export interface DocumentContent {
  originalName: string;
  mimeType: string;
  content: Buffer;
}

export interface CallbackRequest {
  id: number;
  financingCaseId: string;
  status: string;
  note: string | null;
  createdAt: string;
  closedAt: string | null;
  items: ItemReference[];
}

export interface TransmissionItem {
  id: number;
  type: string;
  label: string;
  category: string;
  answer: string | null;
  documents: { fileName: string; mimeType: string; contentBase64: string }[];
}

/** What documents does for the approval team; it checks the rules of items and reviews. */
export interface DocumentsPort {
  caseFiles(financingCaseId: string): Promise<{ items: Record<string, unknown>[]; documents: Record<string, unknown>[] }>;
  openItemCounts(
    financingCaseIds: string[],
    listOverdueCases: boolean,
  ): Promise<{ counts: Map<string, { openItems: number; overdueItems: number }>; overdueCaseIds: string[] }>;
  createRequests(financingCaseId: string, requests: NewRequest[]): Promise<Record<string, unknown>[]>;
  review(documentId: number, status: 'VERIFIED' | 'REJECTED', reason: string | null): Promise<ReviewedDocument>;
  open(documentId: number): Promise<DocumentContent>;
  createCallbackRequest(financingCaseId: string, items: ItemReference[], note: string | null): Promise<CallbackRequest>;
  closeCallbackRequest(id: number): Promise<CallbackRequest>;
  collectTransmission(financingCaseId: string, items: ItemReference[]): Promise<TransmissionItem[]>;
  markTransmitted(financingCaseId: string, items: ItemReference[]): Promise<void>;
}

export interface PartnerDirectory {
  /** The partner's name, or null when it is not known. */
  nameOf(partnerId: string): Promise<string | null>;
}

/** The lender's side of transmission and resubmission (case-workflow talks to lenders). */
export interface LenderChannel {
  sendAttachments(financingCaseId: string, items: TransmissionItem[], actor: Actor): Promise<void>;
  resubmit(financingCaseId: string, actor: Actor): Promise<void>;
}

/** A mail to the case's partner about an approval team's decision. */
export interface PartnerMail {
  kind: string;
  subject: string;
  text: string;
}

export interface BackofficeDependencies {
  cases: CaseWorkflowPort;
  documents: DocumentsPort;
  partners: PartnerDirectory;
  lender: LenderChannel;
  now(): Date;
  documentDueAfterMs: number;
}

export type { Operator };
