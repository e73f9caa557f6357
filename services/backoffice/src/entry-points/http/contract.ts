import { z } from 'zod';
import { boundedText, nonBlankText } from '@rental/problem';
import { MAX_INTEGER_ID, fileHeaders, integerId, pageOf, pageQuery, ulid } from '@rental/http';
import { STORED_FILE_TYPES } from '@rental/proto';
import { OpsOperationSpec, opsOperation, reasonedMoves } from './ops-operation';
import { partnerOperations } from './partner-contract';

const casePath = z.object({ id: ulid().describe('Financing case id') });
const contractPath = z.object({ id: ulid().describe('Contract id') });
const integerPath = (description: string) => z.object({ id: integerId(description) });

const ITEM_TYPES = ['document', 'fill_and_return', 'information'] as const;
const AUDIENCES = ['partner', 'customer', 'operator'] as const;
const reasonText = boundedText(1000);

const documentHeaders = fileHeaders('inline (the console opens the file), with an ASCII filename and the exact name as filename* (RFC 6266)');

export const actorSchema = z
  .object({
    type: z.enum(['partner', 'customer', 'lender', 'signing', 'operator', 'system']),
    id: z.string().nullable(),
    name: z.string().nullable(),
  })
  .meta({ id: 'OpsActor' });

export const historyEntrySchema = z
  .object({
    at: z.string().describe('ISO 8601'),
    actor: actorSchema,
    action: z
      .string()
      .describe("The transition's name (finance_accept, cancel, …) or the operation's (document_review, note, request_items, callback_request, transmit, …)"),
    resourceType: z.string().nullable().describe('quote or contract for status moves'),
    fromStatus: z.string().nullable(),
    toStatus: z.string().nullable(),
    reason: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'OpsHistoryEntry' });

export const opsItemSchema = z
  .object({
    id: z.number().int(),
    type: z.enum(ITEM_TYPES),
    label: z.string(),
    category: z.string(),
    status: z.string().describe('pending, not_available, provided, sent, accepted or rejected'),
    targetAudience: z.enum(AUDIENCES),
    optional: z.boolean(),
    question: z.string().nullable(),
    response: z.string().nullable(),
    requestedAt: z.string(),
    dueAt: z.string().nullable(),
    providedAt: z.string().nullable(),
    transmittedToLenderAt: z.string().nullable(),
    callbackRequestId: z.number().int().nullable(),
    callbackStatus: z.string().describe('none, open or closed'),
    templateFileName: z.string().nullable(),
    transmittableToLender: z.boolean(),
    reviewable: z.boolean(),
    documentIds: z.array(z.number().int()),
  })
  .meta({ id: 'OpsRequestedItem' });

export const opsDocumentSchema = z
  .object({
    id: z.number().int(),
    financingCaseId: z.string(),
    originalName: z.string(),
    mimeType: z.string(),
    fileSize: z.number().int(),
    category: z.string(),
    description: z.string().nullable(),
    uploadedAt: z.string(),
    uploadedBy: z.enum(['partner', 'customer', 'operator', 'system']),
    reviewStatus: z.enum(['PENDING_REVIEW', 'VERIFIED', 'REJECTED', 'SUPERSEDED']).nullable(),
    rejectionReason: z.string().nullable(),
    requestedItemId: z.number().int().nullable(),
    internalOnly: z.boolean(),
    downloadUrl: z.string().describe('/ops/v1/documents/<id>/download'),
  })
  .meta({ id: 'OpsDocument' });

export const queueEntrySchema = z
  .object({
    id: z.string(),
    caseNumber: z.string(),
    quoteNumber: z.string(),
    partnerId: z.string(),
    partnerName: z.string().nullable(),
    status: z.string(),
    contractStatus: z.string().nullable(),
    lenderSubmissionStatus: z.string().nullable().describe('pending, submitted or failed; null before any submission'),
    financingNumber: z.string().nullable(),
    inReviewSince: z.string().nullable(),
    statusUpdatedAt: z.string(),
    openItems: z.number().int().describe('Pending requested items of every audience'),
    overdueItems: z.number().int().describe('Required partner or customer items pending after their dueAt'),
  })
  .meta({ id: 'OpsQueueEntry' });

export const caseDetailSchema = z
  .looseObject({
    id: z.string(),
    caseNumber: z.string(),
    partnerId: z.string(),
    partnerName: z.string().nullable(),
    status: z.string(),
    rejectionReason: z.string().nullable(),
    quote: z.record(z.string(), z.unknown()).describe('The quote as the partner API shows it, with financingNumber and lenderSubmissionStatus'),
    contract: z
      .object({
        id: z.string(),
        contractNumber: z.string().nullable(),
        status: z.string(),
        statusUpdatedAt: z.string(),
        createdAt: z.string(),
        updatedAt: z.string(),
      })
      .nullable(),
    envelope: z.record(z.string(), z.unknown()).nullable(),
    lenderSubmissions: z.array(
      z.object({
        id: z.number().int(),
        lenderId: z.string().nullable(),
        status: z.string(),
        attempts: z.number().int(),
        lastError: z.string().nullable(),
        reference: z.string().nullable(),
        createdAt: z.string(),
        submittedAt: z.string().nullable(),
      }),
    ),
    requestedItems: z.array(opsItemSchema),
    documents: z.array(opsDocumentSchema),
    history: z.array(historyEntrySchema),
  })
  .meta({ id: 'OpsCase' });

const itemReference = z.object({ type: z.enum(ITEM_TYPES), id: z.number().int().min(1).max(MAX_INTEGER_ID) }).meta({ id: 'OpsItemReference' });

export const queueQuery = pageQuery.extend({
  status: z.string().max(500).optional().describe('Quote statuses, comma-separated'),
  partnerId: z.string().max(100).optional(),
  lenderSubmissionStatus: z.enum(['pending', 'submitted', 'failed']).optional(),
  overdue: z.enum(['true', 'false']).optional().describe('true: only cases with overdue items'),
  q: z.string().max(200).optional().describe("Matches case, quote and financing numbers and the customer's company"),
});

export const transitionBody = z
  .object({
    transition: z.string().min(1).max(64).describe('A move of the quote table (not cancel; not finance_accept out of finance_rejected, which is the override)'),
    reason: reasonText.nullable().optional(),
  })
  .meta({ id: 'OpsTransition' });

export const reasonBody = z.object({ reason: reasonText }).meta({ id: 'OpsReason' });

const newItem = z.object({
  type: z.enum(ITEM_TYPES),
  label: z.string().max(255).default(''),
  category: z.string().max(60).default('').describe('Documents: a financing-stage category; fill_and_return: self_disclosure_template or default_guarantee'),
  question: z.string().max(10_000).default('').describe('Information requests'),
  optional: z.boolean().default(false),
  targetAudience: z.enum(AUDIENCES).default('partner'),
  dueAt: z.iso.datetime({ offset: true }).nullable().optional().describe('Default: now + DOCUMENT_DUE_AFTER'),
  template: z
    .object({
      fileName: z.string().min(1).max(255),
      mimeType: z.enum(STORED_FILE_TYPES),
      contentBase64: z.base64().max(14_000_000),
    })
    .nullable()
    .optional()
    .describe('fill_and_return: the form to fill in; without it one is generated'),
});

export const requestsBody = z.object({ items: z.array(newItem).min(1).max(50) }).meta({ id: 'OpsNewRequests' });

export const reviewBody = z
  .object({
    status: z.enum(['VERIFIED', 'REJECTED']),
    reason: reasonText.nullable().optional().describe('Shown to the partner on a rejected document'),
  })
  .meta({ id: 'OpsReview' });

export const itemsBody = z.object({ items: z.array(itemReference).min(1).max(100) }).meta({ id: 'OpsItems' });

export const callbackBody = z
  .object({
    items: z.array(itemReference).min(1).max(100),
    note: z.string().trim().max(2000).nullable().optional(),
  })
  .meta({ id: 'OpsNewCallbackRequest' });

export const noteBody = z.object({ text: nonBlankText().max(10_000) }).meta({ id: 'OpsNewNote' });

/** The places an operator may move a contract to. */
export const CONTRACT_TARGETS = ['signed', 'post_processing_required', 'delivery_approved', 'invoice_checked', 'completed'] as const;

export const contractTransitionBody = z
  .object({
    to: z.enum(CONTRACT_TARGETS).describe('A later place; steps may be skipped'),
  })
  .meta({ id: 'OpsContractTransition' });

const callbackSchema = z
  .object({
    id: z.number().int(),
    financingCaseId: z.string(),
    status: z.enum(['open', 'closed']),
    note: z.string().nullable(),
    createdAt: z.string(),
    closedAt: z.string().nullable(),
    items: z.array(itemReference),
  })
  .meta({ id: 'OpsCallbackRequest' });

const noteSchema = z.object({ financingCaseId: z.string(), text: z.string(), createdAt: z.string(), author: actorSchema }).meta({ id: 'OpsNote' });

const caseAnswer = { 200: { description: 'The changed case', schema: caseDetailSchema } };
/** The approver's decisions on a case that the history keeps with their reason. */
const reasonedDecision = reasonedMoves({ params: casePath, reason: reasonBody, answer: caseAnswer });

export const queueOperation = opsOperation({
  role: 'viewer',
  operationId: 'ops_list_cases',
  method: 'get',
  path: '/ops/v1/cases',
  summary: 'The queue: cases of every partner, longest waiting first',
  description:
    'Longest waiting = oldest status change first. `status` takes a comma list; `overdue=true` keeps cases with a required partner or customer item pending after its dueAt.',
  query: queueQuery,
  returns: pageOf('the queue', queueEntrySchema),
});

export const caseOperation = opsOperation({
  role: 'viewer',
  operationId: 'ops_get_case',
  method: 'get',
  path: '/ops/v1/cases/{id}',
  summary: 'A case with quote, contract, envelope, lender submissions, every item and document, and its history',
  description:
    'Items of every audience (partner, customer, operator) with dueAt; documents with their review status and who uploaded them; history of every change with actor, action, statuses and reason.',
  params: casePath,
  returns: { 200: { description: 'The case', schema: caseDetailSchema } },
});

export const transitionOperation = opsOperation({
  role: 'reviewer',
  operationId: 'ops_transition_case',
  method: 'post',
  path: '/ops/v1/cases/{id}/transitions',
  summary: 'A move of the quote table from the current status',
  roleNote: 'finance_* moves and start_manual_finance_review need the approver role, every other move the reviewer role.',
  description:
    'cancel has its own route; finance_accept out of finance_rejected is the override (422 ops.override_required). request_finance_review(_direct) submits the case to the lender.',
  params: casePath,
  body: { schema: transitionBody },
  returns: caseAnswer,
});

export const overrideOperation = reasonedDecision({
  operationId: 'ops_override_case',
  path: '/ops/v1/cases/{id}/override',
  summary: 'finance_rejected → finance_accepted (financeRejectedOverride), with the reason',
  description: 'Only from finance_rejected (else 422); the reason is kept in the history.',
});

export const cancelOperation = reasonedDecision({
  operationId: 'ops_cancel_case',
  path: '/ops/v1/cases/{id}/cancel',
  summary: "The approval team's cancel from any other status, with every effect of the partner cancel",
  description:
    "From any status but canceled (422), without the partner's restrictions; a contract waiting for signing is canceled with it, a signed or later one stays active; open callback requests close.",
});

export const requestsOperation = opsOperation({
  role: 'reviewer',
  operationId: 'ops_request_items',
  method: 'post',
  path: '/ops/v1/cases/{id}/requests',
  summary: 'Requested documents, fill-and-return forms and information, for the partner, the customer or the approval team',
  description: 'All items or none: a bad item is a 422 naming it. dueAt defaults to now + DOCUMENT_DUE_AFTER.',
  params: casePath,
  body: { schema: requestsBody },
  returns: { 201: { description: 'The created items', schema: z.array(opsItemSchema) } },
});

export const reviewOperation = opsOperation({
  role: 'reviewer',
  operationId: 'ops_review_document',
  method: 'post',
  path: '/ops/v1/documents/{id}/review',
  summary: "VERIFIED accepts the document's request; REJECTED reopens it for the partner",
  description: 'Only a PENDING_REVIEW document (else 422 at status). A rejection is mailed to the partner.',
  params: integerPath('Document id'),
  body: { schema: reviewBody },
  returns: { 200: { description: 'The case of the document', schema: caseDetailSchema } },
});

export const downloadOperation = opsOperation({
  role: 'viewer',
  operationId: 'ops_download_document',
  method: 'get',
  path: '/ops/v1/documents/{id}/download',
  summary: 'Any document of any case, bytes as stored',
  description: "The bytes as stored, with their own content type (application/pdf, image/png or image/jpeg, as the document's mimeType says).",
  params: integerPath('Document id'),
  returns: { 200: { description: 'The file', contentType: STORED_FILE_TYPES, headers: documentHeaders } },
});

export const transmitOperation = opsOperation({
  role: 'reviewer',
  operationId: 'ops_transmit_items',
  method: 'post',
  path: '/ops/v1/cases/{id}/transmit',
  summary: 'Sends verified documents and given answers of the items to the lender',
  description:
    'Each item needs a verified document or a given answer (422 naming it); a case without a lender reference is 422. Items become sent with transmittedToLenderAt once the lender took them; a lender that fails is 502 and nothing changes.',
  params: casePath,
  body: { schema: itemsBody },
  returns: caseAnswer,
  problems: [502],
});

export const resubmitOperation = opsOperation({
  role: 'reviewer',
  operationId: 'ops_resubmit_case',
  method: 'post',
  path: '/ops/v1/cases/{id}/resubmit',
  summary: 'A new lender submission when the last one failed',
  description: 'Only when the last submission is failed (else 422).',
  params: casePath,
  returns: caseAnswer,
  problems: [422],
});

export const callbackOperation = opsOperation({
  role: 'reviewer',
  operationId: 'ops_create_callback_request',
  method: 'post',
  path: '/ops/v1/cases/{id}/callback-requests',
  summary: 'Links items to a new open callback request',
  description: "The partner's list shows callbackRequestId and callbackStatus on the items; any cancel closes it.",
  params: casePath,
  body: { schema: callbackBody },
  returns: { 201: { description: 'The callback request', schema: callbackSchema } },
});

export const closeCallbackOperation = opsOperation({
  role: 'reviewer',
  operationId: 'ops_close_callback_request',
  method: 'post',
  path: '/ops/v1/callback-requests/{id}/close',
  summary: 'Closes an open callback request',
  description: 'An open callback request only (else 422).',
  params: integerPath('Callback request id'),
  returns: caseAnswer,
  problems: [422],
});

export const noteOperation = opsOperation({
  role: 'reviewer',
  operationId: 'ops_add_note',
  method: 'post',
  path: '/ops/v1/cases/{id}/notes',
  summary: "An internal note in the case's history",
  description: "Kept in the case's history (action note).",
  params: casePath,
  body: { schema: noteBody },
  returns: { 201: { description: 'The note', schema: noteSchema } },
});

export const contractTransitionOperation = opsOperation({
  role: 'reviewer',
  operationId: 'ops_transition_contract',
  method: 'post',
  path: '/ops/v1/contracts/{id}/transitions',
  summary: 'Moves a contract forward (signed → post_processing_required → delivery_approved → invoice_checked → completed)',
  description: 'Steps may be skipped, never back. completed needs a contract number; a completed contract completes its finance_accepted quote.',
  params: contractPath,
  body: { schema: contractTransitionBody },
  returns: caseAnswer,
});

export const operations: OpsOperationSpec[] = [
  queueOperation,
  caseOperation,
  transitionOperation,
  overrideOperation,
  cancelOperation,
  requestsOperation,
  reviewOperation,
  downloadOperation,
  transmitOperation,
  resubmitOperation,
  callbackOperation,
  closeCallbackOperation,
  noteOperation,
  contractTransitionOperation,
  ...partnerOperations,
];
