import type { Readable } from 'node:stream';
import type { StoredMimeType } from './file-type';

export const REVIEW_STATUSES = ['PENDING_REVIEW', 'VERIFIED', 'REJECTED', 'SUPERSEDED'] as const;
/** null exists for legacy rows. */
export type ReviewStatus = (typeof REVIEW_STATUSES)[number] | null;

export const UPLOADERS = ['partner', 'customer', 'operator', 'system'] as const;
export type Uploader = (typeof UPLOADERS)[number];

export interface FinancingDocument {
  id: number;
  financingCaseId: string;
  partnerId: string;
  originalName: string;
  mimeType: string;
  fileSize: number;
  category: string;
  description: string | null;
  uploadedAt: string;
  uploadedBy: Uploader;
  reviewStatus: ReviewStatus;
  objectKey: string;
  requestedItemId: number | null;
  supersededBy: number | null;
  rejectionReason: string | null;
  /** Created by a sandbox scenario (the signed contract), removed again by reset. */
  simulated: boolean;
  /** Whether a signature is on the document (the handover confirmation is shown only signed). */
  signed: boolean;
  internalOnly: boolean;
}

export const ITEM_TYPES = ['information', 'document', 'fill_and_return'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

export const ITEM_STATUSES = ['pending', 'not_available', 'provided', 'sent', 'accepted', 'rejected'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export const TARGET_AUDIENCES = ['customer', 'partner', 'operator'] as const;
export type TargetAudience = (typeof TARGET_AUDIENCES)[number];

export type RecipientType = 'service' | 'billing';
export type CallbackStatus = 'open' | 'closed';

export interface TemplateFile {
  objectKey: string;
  fileName: string;
  fileSize: number;
  mimeType: string;
  originalName: string;
}

export interface RequestItem {
  id: number;
  itemType: ItemType;
  financingCaseId: string;
  partnerId: string;
  label: string;
  category: string;
  status: ItemStatus;
  recipientType: RecipientType;
  targetAudience: TargetAudience;
  optional: boolean;
  internalOnly: boolean;
  customName: string | null;
  question: string | null;
  response: string | null;
  template: TemplateFile | null;
  callbackRequestId: number | null;
  callbackStatus: CallbackStatus | null;
  requestedAt: string;
  dueAt: string | null;
  providedAt: string | null;
  transmittedToLenderAt: string | null;
  updatedAt: string;
}

/** A file ready to be stored: its size is known and it can be read (again) from the start. */
export interface FileSource {
  size: number;
  mimeType: StoredMimeType;
  open(): Readable;
}

/**
 * The visibility rule of the specification: a partner sees the files it provided itself, the
 * signed contract and the signed handover confirmation of its own cases. Superseded versions of
 * any category, customer-provided and operator-internal documents stay hidden.
 */
export function isVisibleToPartner(document: FinancingDocument, partnerId: string): boolean {
  if (document.partnerId !== partnerId || document.reviewStatus === 'SUPERSEDED') return false;
  if (document.category === 'signed_contract') return true;
  if (document.category === 'handover_confirmation' && document.signed) return true;
  return document.uploadedBy === 'partner' && !document.internalOnly;
}

/**
 * The partner sees the items asked of it: customer items are for the customer's page, items an
 * operator keeps for itself for nobody outside the approval team. Stated as the values of a
 * visible item, so that the case list's SQL filters by the same rule.
 */
export const VISIBLE_ITEM = { internalOnly: false, targetAudience: 'partner' } as const satisfies Pick<RequestItem, 'internalOnly' | 'targetAudience'>;

export function isVisibleItem(item: RequestItem): boolean {
  return item.internalOnly === VISIBLE_ITEM.internalOnly && item.targetAudience === VISIBLE_ITEM.targetAudience;
}

/**
 * Where the form of a fill-and-return item is downloaded: the partner API's route, and the item's
 * templateDownloadUrl with the case and the item filled in.
 */
export const TEMPLATE_DOWNLOAD_PATH = '/api/financing-cases/{financingCaseId}/document-requests/fill-and-return-templates/{templateId}/download';

export function templateDownloadPath(financingCaseId: string, itemId: number): string {
  return TEMPLATE_DOWNLOAD_PATH.replace('{financingCaseId}', financingCaseId).replace('{templateId}', String(itemId));
}

/**
 * Whether an upload can still fulfil the item: until it is sent to the lender, accepted or
 * declared not available. A provided item can be replaced; the earlier file is superseded.
 */
export function acceptsUpload(item: RequestItem): boolean {
  return (
    (item.itemType === 'document' || item.itemType === 'fill_and_return') &&
    (item.status === 'pending' || item.status === 'provided' || item.status === 'rejected') &&
    item.transmittedToLenderAt === null
  );
}

/** Not superseded: PENDING_REVIEW and VERIFIED (the specification's activeResponseDocuments). */
export function isActiveResponse(document: FinancingDocument): boolean {
  return document.reviewStatus === 'PENDING_REVIEW' || document.reviewStatus === 'VERIFIED';
}

/** Everything but REJECTED, SUPERSEDED and the legacy null status. */
export const isTransmittableResponse = isActiveResponse;

export interface ItemState {
  fulfilled: boolean;
  editable: boolean;
  reviewable: boolean;
  notAvailable: boolean;
  transmittableToLender: boolean;
}

/** Derived flags of a requested item, from its status and the files that answered it. */
export function itemState(item: RequestItem, responses: FinancingDocument[]): ItemState {
  const active = responses.filter(isActiveResponse);
  const fulfilled =
    item.itemType === 'information'
      ? item.status === 'provided' || item.status === 'sent' || item.status === 'accepted'
      : active.length > 0 && item.status !== 'not_available';
  return {
    fulfilled,
    // "true while nothing has been uploaded or a reviewer sent the submission back"
    editable:
      item.status !== 'not_available' &&
      item.status !== 'sent' &&
      item.status !== 'accepted' &&
      (item.itemType === 'information' ? item.status === 'pending' || item.status === 'rejected' : active.length === 0),
    reviewable: responses.some((document) => document.reviewStatus === 'PENDING_REVIEW'),
    notAvailable: item.status === 'not_available',
    transmittableToLender:
      item.transmittedToLenderAt === null && (item.itemType === 'information' ? item.status === 'provided' : responses.some(isTransmittableResponse)),
  };
}

export interface CallbackRequestView {
  id: number;
  financingCaseId: string;
  status: 'open' | 'closed';
  note: string | null;
  createdAt: string;
  closedAt: string | null;
  items: { type: ItemType; id: number }[];
}

export interface OpenItemCount {
  financingCaseId: string;
  openItems: number;
  overdueItems: number;
}
