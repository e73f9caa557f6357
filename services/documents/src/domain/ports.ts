import type { Readable } from 'node:stream';
import type {
  FileSource,
  FinancingDocument,
  ItemType,
  RequestItem,
  ReviewStatus,
  TargetAudience,
  TemplateFile,
  CallbackRequestView,
  OpenItemCount,
} from './model';

/** Who asks: the partner of the public request or of the internal call, and the request id for logs. */
export interface CallerContext {
  partnerId?: string;
  requestId?: string;
  /** The calling service, from its signed identity (internal calls only). */
  caller?: string;
}

/** case-workflow's answer about a case; documents never reads case data itself. */
export interface CaseAccess {
  exists: boolean;
  partnerId: string;
  status: string;
  quoteId: string;
}

/** What a customer link opens, asked of case-workflow (which keeps the links). */
export interface CustomerLinkAccess {
  state: 'valid' | 'expired' | 'unknown';
  financingCaseId: string;
  partnerId: string;
  viewOnly: boolean;
  status: string;
}

export interface CaseDirectory {
  access(financingCaseId: string, context: CallerContext): Promise<CaseAccess>;
  resolveCustomerLink(token: string, context: CallerContext): Promise<CustomerLinkAccess>;
}

/** File bytes. Every failure to reach the store surfaces as DomainError('unavailable'). */
export interface ObjectStore {
  put(key: string, source: FileSource): Promise<void>;
  get(key: string): Promise<Readable>;
  remove(key: string): Promise<void>;
}

/**
 * The journal that keeps storage and rows in step: an object key is announced before its bytes
 * are written and settled in the transaction that inserts its row (or deletes it). Whatever is
 * left announced after a crash is removed by the sweeper.
 */
export interface PendingObjects {
  announce(key: string): Promise<void>;
  settle(keys: string[]): Promise<void>;
  /** Whether a document or template row refers to the key (its transaction committed). */
  isReferenced(key: string): Promise<boolean>;
  /** Keys to clean up: deletions at once, uploads only once they are older than the cutoff. */
  due(uploadsAnnouncedBefore: string, limit: number): Promise<string[]>;
}

/** A document as it is stored first: not yet superseded, rejected or made internal, and numbered by the store. */
export type NewDocument = Omit<FinancingDocument, 'id' | 'supersededBy' | 'rejectionReason' | 'internalOnly'>;

export type RecordUploadResult = { outcome: 'stored'; document: FinancingDocument } | { outcome: 'item_closed' };

export type RejectResult =
  | { outcome: 'not_found' }
  | { outcome: 'not_rejectable'; reviewStatus: ReviewStatus }
  | { outcome: 'rejected'; document: FinancingDocument; reopenedItemId: number | null };

export interface DocumentStore {
  find(id: number): Promise<FinancingDocument | undefined>;
  listByCase(financingCaseId: string): Promise<FinancingDocument[]>;
  listByItems(itemIds: number[]): Promise<FinancingDocument[]>;
  /**
   * Inserts the row and settles its object key. When it fulfils an item, in the same
   * transaction: the item's active documents become SUPERSEDED and the item provided, unless the
   * item no longer accepts uploads (then nothing is written).
   */
  recordUpload(document: NewDocument): Promise<RecordUploadResult>;
  /** The simulated signed contract of a case; inserting a second one returns the first. */
  findSimulatedSignedContract(financingCaseId: string): Promise<FinancingDocument | undefined>;
  findProviderSignedContract(financingCaseId: string): Promise<FinancingDocument | undefined>;
  insertSignedContract(document: NewDocument): Promise<{ document: FinancingDocument; created: boolean }>;
  /** PENDING_REVIEW → REJECTED with the reason; the linked item reopens (pending). */
  reject(financingCaseId: string, documentId: number, reason: string | null, now: string): Promise<RejectResult>;
}

export interface NewItem {
  itemType: ItemType;
  financingCaseId: string;
  partnerId: string;
  label: string;
  category: string;
  optional: boolean;
  targetAudience: TargetAudience;
  internalOnly: boolean;
  question: string | null;
  template: TemplateFile | null;
  requestedAt: string;
  dueAt: string | null;
}

/** The requested-item lists of one case, oldest first, as the object of its four lists the case list prints. */
export interface CaseItemsJson {
  financingCaseId: string;
  listsJson: string;
}

export interface ItemStore {
  /**
   * Inserts the items in one transaction and settles their template keys. With a creation key,
   * a repeat for the same case inserts nothing and answers the items the key created (repeated).
   */
  create(items: NewItem[], creationKey: string | null): Promise<{ items: RequestItem[]; repeated: boolean }>;
  find(id: number): Promise<RequestItem | undefined>;
  /** The items of the partner on any of the cases, in one read, oldest first. */
  listByCasesOfPartner(financingCaseIds: string[], partnerId: string): Promise<RequestItem[]>;
  /** The partner-visible items of the partner's cases as the case list prints them; cases without any are left out. */
  listJsonByCasesOfPartner(financingCaseIds: string[], partnerId: string): Promise<CaseItemsJson[]>;
  /** Stores the answer of a pending information item; undefined when it was no longer pending. */
  respond(id: number, response: string | null, now: string): Promise<RequestItem | undefined>;
  /** pending → not_available; undefined when it was no longer pending. */
  markNotAvailable(id: number, now: string): Promise<RequestItem | undefined>;
  /** The customer-audience items of a case, oldest first. */
  listForCustomer(financingCaseId: string): Promise<RequestItem[]>;
  /** Required, pending partner- or customer-audience items due before the time, not yet marked by the stage. */
  listOverdue(dueBefore: string, stage: OverdueStage, limit: number, only?: { partnerId: string; financingCaseIds: string[] }): Promise<RequestItem[]>;
  markOverdue(ids: number[], stage: OverdueStage, at: string): Promise<number>;
}

export type OverdueStage = 'notice' | 'cancel';

export interface CaseCleanup {
  /**
   * Deletes the open requests and the simulated signed contracts of a case in one transaction;
   * their object keys are announced for removal in it. Returns the keys to remove now.
   */
  resetCase(financingCaseId: string): Promise<{ removedItems: number; removedDocuments: number; objectKeys: string[] }>;
  /** Invalidates document tokens and closes open callback requests, once per event id. */
  applyCancel(eventId: string, financingCaseId: string, now: string): Promise<{ applied: boolean; invalidatedTokens: number; closedCallbacks: number }>;
}

/** The reads and writes only the approval team makes. */
export interface OperatorFiles {
  /** Pending items of each case, and those of them overdue (required, partner or customer audience, past dueAt). */
  countOpenItems(financingCaseIds: string[], now: string): Promise<OpenItemCount[]>;
  overdueCaseIds(now: string): Promise<string[]>;
  /** PENDING_REVIEW → VERIFIED; the linked item becomes accepted. undefined when it was not PENDING_REVIEW any more. */
  verify(documentId: number, now: string): Promise<FinancingDocument | undefined>;
  createCallbackRequest(financingCaseId: string, partnerId: string, itemIds: number[], note: string | null, now: string): Promise<CallbackRequestView>;
  findCallbackRequest(id: number): Promise<CallbackRequestView | undefined>;
  /** open → closed; undefined when it was closed already. */
  closeCallbackRequest(id: number, now: string): Promise<CallbackRequestView | undefined>;
  markTransmitted(itemIds: number[], now: string): Promise<RequestItem[]>;
}
