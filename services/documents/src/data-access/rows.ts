import type {
  CallbackStatus,
  FinancingDocument,
  ItemStatus,
  ItemType,
  RecipientType,
  RequestItem,
  ReviewStatus,
  TargetAudience,
  Uploader,
} from '../domain/model';

export interface DocumentRow {
  id: number;
  financing_case_id: string;
  partner_id: string;
  original_name: string;
  mime_type: string;
  file_size: number;
  category: string;
  description: string | null;
  uploaded_at: Date;
  uploaded_by: Uploader;
  review_status: ReviewStatus;
  object_key: string;
  requested_item_id: number | null;
  superseded_by: number | null;
  rejection_reason: string | null;
  simulated: boolean;
  signed: boolean;
  internal_only: boolean;
}

export interface ItemRow {
  id: number;
  item_type: ItemType;
  financing_case_id: string;
  partner_id: string;
  label: string;
  category: string;
  status: ItemStatus;
  recipient_type: RecipientType;
  target_audience: TargetAudience;
  optional: boolean;
  internal_only: boolean;
  custom_name: string | null;
  question: string | null;
  response: string | null;
  template_object_key: string | null;
  template_file_name: string | null;
  template_file_size: number | null;
  template_mime_type: string | null;
  template_original_name: string | null;
  callback_request_id: number | null;
  callback_status?: CallbackStatus | null;
  requested_at: Date;
  due_at: Date | null;
  provided_at: Date | null;
  transmitted_to_lender_at: Date | null;
  updated_at: Date;
}

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

export function toDocument(row: DocumentRow): FinancingDocument {
  return {
    id: row.id,
    financingCaseId: row.financing_case_id,
    partnerId: row.partner_id,
    originalName: row.original_name,
    mimeType: row.mime_type,
    fileSize: row.file_size,
    category: row.category,
    description: row.description,
    uploadedAt: row.uploaded_at.toISOString(),
    uploadedBy: row.uploaded_by,
    reviewStatus: row.review_status,
    objectKey: row.object_key,
    requestedItemId: row.requested_item_id,
    supersededBy: row.superseded_by,
    rejectionReason: row.rejection_reason,
    simulated: row.simulated,
    signed: row.signed,
    internalOnly: row.internal_only,
  };
}

export function toItem(row: ItemRow): RequestItem {
  return {
    id: row.id,
    itemType: row.item_type,
    financingCaseId: row.financing_case_id,
    partnerId: row.partner_id,
    label: row.label,
    category: row.category,
    status: row.status,
    recipientType: row.recipient_type,
    targetAudience: row.target_audience,
    optional: row.optional,
    internalOnly: row.internal_only,
    customName: row.custom_name,
    question: row.question,
    response: row.response,
    template: row.template_object_key
      ? {
          objectKey: row.template_object_key,
          fileName: row.template_file_name ?? '',
          fileSize: row.template_file_size ?? 0,
          mimeType: row.template_mime_type ?? 'application/pdf',
          originalName: row.template_original_name ?? row.template_file_name ?? '',
        }
      : null,
    callbackRequestId: row.callback_request_id,
    callbackStatus: row.callback_request_id === null ? null : (row.callback_status ?? null),
    requestedAt: row.requested_at.toISOString(),
    dueAt: iso(row.due_at),
    providedAt: iso(row.provided_at),
    transmittedToLenderAt: iso(row.transmitted_to_lender_at),
    updatedAt: row.updated_at.toISOString(),
  };
}
