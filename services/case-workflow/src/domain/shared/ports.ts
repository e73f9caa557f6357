import type { ProblemDocument } from '@rental/problem';
import type { RequestedItem } from './model';

export interface CallContext {
  partnerId: string;
  requestId?: string;
}

export interface MailRequest {
  kind: string;
  recipient: { partnerId: string } | { email: string };
  subject: string;
  text: string;
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
  /**
   * The same as JSON the documents service's database built: per case one object of the case's
   * four item lists as the case list prints them (requestedDocuments … requestedItems); a case
   * without items is not in the map.
   */
  listRequestItemsJsonOfCases(financingCaseIds: string[], context: CallContext): Promise<Map<string, string>>;
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

/** The callbacks of outside parties applied so far, by sender and webhook-id: each is applied at most once. */
export interface AppliedCallbacks {
  /** Whether a callback of this sender and webhook-id was applied (its change committed). */
  isCallbackApplied(sender: string, webhookId: string): Promise<boolean>;
  /** Records a callback as applied on its own, after work done outside the case's transaction; false when it was recorded before. */
  markCallbackApplied(sender: string, webhookId: string): Promise<boolean>;
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

/** The partner's display name, from pricing's partner profile; null when it cannot be told. */
export interface PartnerNames {
  nameOf(partnerId: string): Promise<string | null>;
}
