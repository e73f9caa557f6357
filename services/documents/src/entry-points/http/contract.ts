import { z } from 'zod';
import { defineOperation, fileHeaders, integerId, operationsOn, problemResponses, ulid } from '@rental/http';
import { malformedBody, zodViolations } from '@rental/problem';
import { DOCUMENT_CATEGORIES, STORED_FILE_TYPES } from '@rental/proto';
import { MAX_UPLOAD_BYTES } from '../../domain/file-type';
import { ITEM_STATUSES, ITEM_TYPES, REVIEW_STATUSES, TARGET_AUDIENCES, TEMPLATE_DOWNLOAD_PATH } from '../../domain/model';

const caseId = ulid().describe('financeCaseId of the checkout');

const casePath = z.object({ financingCaseId: caseId });
const documentPath = z.object({ id: integerId('Document id') });

export const documentSchema = z
  .object({
    '@id': z.string().describe('Path of the document'),
    '@type': z.literal('FinancingDocument'),
    id: z.number().int(),
    financingCaseId: z.string(),
    originalName: z.string().describe('File name as uploaded, without path segments or control characters'),
    mimeType: z.string().describe('Detected from the file content: application/pdf, image/png or image/jpeg'),
    fileSize: z.number().int().describe('Bytes'),
    category: z.string(),
    description: z.string().describe('Empty when none was given'),
    uploadedAt: z.string().describe('ISO 8601'),
    downloadUrl: z.string().describe('/api/documents/<id>/download'),
    reviewStatus: z.enum(REVIEW_STATUSES).nullable().describe('null for legacy documents'),
    rejectionReason: z.string().nullable().describe('Why a reviewer rejected the file; null unless REJECTED'),
  })
  .meta({ id: 'FinancingDocument' });

const documentIris = (description: string) => z.array(z.string()).describe(`${description}; paths of the documents the partner can read`);

export const requestItemSchema = z
  .object({
    id: z.number().int(),
    type: z.enum(ITEM_TYPES),
    label: z.string(),
    status: z.enum(ITEM_STATUSES),
    category: z.string(),
    templateDownloadUrl: z.string().nullable().describe('Fill-and-return only: where the form to fill in is downloaded'),
    callbackRequestId: z.number().int().optional().describe('Present when the item is linked to a callback request'),
    callbackStatus: z.enum(['none', 'open', 'closed']).describe('Status of the linked callback request; none without one'),
    requestedAt: z.string().describe('ISO 8601'),
    dueAt: z.string().nullable().describe('ISO 8601: when the approval team expects the answer; null when no date is set'),
    financingCase: z.string().describe('Path of the financing case'),
    itemType: z.enum(ITEM_TYPES),
    recipientType: z.enum(['service', 'billing']),
    targetAudience: z.enum(TARGET_AUDIENCES),
    optional: z.boolean().describe('Only optional items can be declared not available'),
    providedAt: z.string().nullable(),
    transmittedToLenderAt: z.string().nullable(),
    updatedAt: z.string(),
    fulfilled: z.boolean(),
    editable: z.boolean().describe('true while nothing has been provided or a reviewer sent the submission back'),
    reviewable: z.boolean().describe('A provided file awaits review'),
    notAvailable: z.boolean(),
    internalOnly: z.boolean(),
    transmittableToLender: z.boolean(),
    question: z.string().nullable().optional().describe('Information only: what is asked'),
    response: z.string().nullable().optional().describe("Information only: the partner's answer"),
    customName: z.string().nullable().optional().describe('Requested document only'),
    responseDocuments: documentIris('Files that answered the request').optional(),
    verifiedResponseDocuments: documentIris('Answers a reviewer verified').optional(),
    activeResponseDocuments: documentIris('Answers not superseded: PENDING_REVIEW and VERIFIED').optional(),
    transmittableResponseDocuments: documentIris('Answers that can go to the lender: not REJECTED, not SUPERSEDED, not without status').optional(),
    latestPendingResponseDocument: z.string().nullable().optional().describe('Requested document only: the newest answer awaiting review'),
    templateFileName: z.string().optional().describe('Fill-and-return only'),
    templateFileSize: z.number().int().optional().describe('Fill-and-return only; bytes'),
    templateFileMimeType: z.string().optional().describe('Fill-and-return only'),
    templateOriginalName: z.string().optional().describe('Fill-and-return only'),
  })
  .meta({ id: 'DocumentRequestItem' });

const uploadForm = z
  .object({
    file: z
      .string()
      .meta({ format: 'binary', contentMediaType: 'application/octet-stream' })
      .describe(`PDF, PNG or JPEG, at most ${MAX_UPLOAD_BYTES} bytes; the type is read from the content, not from the name or the part's content type`),
    category: z.enum(DOCUMENT_CATEGORIES),
    description: z.string().max(2000).optional(),
    requestedDocumentId: z
      .string()
      .regex(/^[0-9]+$/)
      .optional()
      .describe('Id of an open requested document or fill-and-return of this case that the file answers'),
  })
  .meta({ id: 'DocumentUpload' });

const downloadHeaders = fileHeaders('attachment with the original name: an ASCII filename and the exact name as filename* (RFC 5987)');

// Another partner's case or document is refused (403), not hidden.
const caseDocuments = operationsOn({ tags: ['Documents'], params: casePath, problems: [403] });
const document = operationsOn({ tags: ['Documents'], params: documentPath, problems: [403], noun: 'document' });
const caseRequests = operationsOn({ tags: ['Document requests'], params: casePath, problems: [403] });

export const uploadDocument = caseDocuments.post({
  operationId: 'uploadFinancingDocument',
  path: '/api/financing-cases/{financingCaseId}/documents',
  summary: 'Upload a document to a financing case',
  description: [
    `multipart/form-data. The file is refused with 422 at \`file\` when it is missing, empty, larger than 10 MB (${MAX_UPLOAD_BYTES} bytes; refused as soon as the limit is passed) or neither PDF, PNG nor JPEG by its content;`,
    '`category` must be a document category (422); `signed_contract` and `handover_confirmation` are provided by the platform and refused for partner uploads (422 document.category_reserved). With `requestedDocumentId` the file answers that open request of the case: the request becomes provided and an earlier answer of it is superseded; an unknown or closed request is 404.',
    'A body that is not multipart/form-data is 400. Bodies larger than the gateway limit are refused with 413 before they reach the service.',
  ].join(' '),
  body: { schema: uploadForm, contentType: 'multipart/form-data' },
  returns: {
    201: {
      description: 'The stored document',
      schema: documentSchema,
      headers: { Location: { description: 'Path of the document', schema: z.string(), required: true } },
    },
  },
  problems: [413],
});

export const listDocuments = caseDocuments.list({
  operationId: 'listFinancingDocuments',
  path: '/api/financing-cases/{financingCaseId}/documents',
  summary: 'Documents of a financing case',
  description:
    'Only the files the partner provided itself (superseded versions left out), the signed contract and the signed handover confirmation, oldest first.',
  items: { description: 'The visible documents', schema: documentSchema },
});

export const getDocument = document.read({
  operationId: 'getFinancingDocument',
  path: '/api/documents/{id}',
  summary: 'Metadata of a document',
  description:
    'A document of another partner is 403; a document the visibility rule hides (customer-provided, operator-internal, superseded) is 404 like an unknown one.',
  returns: { schema: documentSchema },
});

export const downloadDocument = document.read({
  operationId: 'downloadFinancingDocument',
  path: '/api/documents/{id}/download',
  summary: 'Content of a document',
  description: "Streamed with the document's own type (application/pdf, image/png or image/jpeg, as its mimeType says). Visibility as for the metadata.",
  returns: { description: 'The file', contentType: STORED_FILE_TYPES, headers: downloadHeaders },
});

/**
 * Documentation only: deletion through the API is out of scope and stays off. No handler is
 * registered, so the router answers every DELETE on the path with 405 and `Allow: GET, HEAD`.
 */
export const deleteDocument = defineOperation({
  operationId: 'deleteFinancingDocument',
  method: 'delete',
  path: '/api/documents/{id}',
  summary: 'Delete a document (disabled)',
  description:
    'Deleting documents through the API is out of scope and switched off: every call answers 405 with `Allow` and deletes nothing. 204, 403 and 404 are the answers reserved for when deletion is switched on.',
  tags: ['Documents'],
  params: documentPath,
  responses: {
    204: { description: 'Deleted (reserved: deletion is switched off)' },
    ...problemResponses(403, 404),
    405: { ...problemResponses(405)[405], headers: { Allow: { description: 'The methods the path supports', schema: z.string(), required: true } } },
    ...problemResponses(401),
  },
});

export const listDocumentRequests = caseRequests.list({
  operationId: 'listDocumentRequests',
  path: '/api/financing-cases/{financingCaseId}/document-requests',
  summary: 'Requested documents, fill-and-return forms and information of a financing case',
  description: 'Items for the partner or the customer, oldest first; operator-internal items are left out.',
  items: { description: 'The visible requested items', schema: requestItemSchema },
});

export const downloadTemplate = caseRequests.read({
  operationId: 'downloadFillAndReturnTemplate',
  path: TEMPLATE_DOWNLOAD_PATH,
  summary: 'The form of a fill-and-return request',
  description: '`templateId` is the id of the fill-and-return request (its templateDownloadUrl).',
  params: z.object({ financingCaseId: caseId, templateId: integerId('Id of the fill-and-return request') }),
  returns: { description: 'The template: a PDF, or the image an operator gave as the form', contentType: STORED_FILE_TYPES, headers: downloadHeaders },
});

/** What a partner's answer on a requested item gets back: the item as it now stands. */
const itemAnswer = (description: string) => ({ 200: { description, schema: requestItemSchema } });

const respondBody = z.strictObject({
  response: z.string().max(10_000).nullable().describe('The answer; null answers without text'),
});

export const respondToInformation = caseRequests.post({
  operationId: 'respondToInformationRequest',
  path: '/api/financing-cases/{financingCaseId}/document-requests/information/{informationId}/respond',
  summary: 'Answer an information request',
  description:
    'A body without `response`, with another type, or with other fields is 400. The request must be a partner-visible information request of the case (else 404) and still pending (else 422); it becomes provided.',
  params: z.object({ financingCaseId: caseId, informationId: integerId('Id of the information request') }),
  // Every malformed body is 400 here (the specification lists no 422 for its shape).
  body: { schema: respondBody, reject: (error, input) => malformedBody(zodViolations(error, input)) },
  returns: itemAnswer('The answered request'),
});

export const declareNotAvailable = caseRequests.post({
  operationId: 'declareDocumentRequestNotAvailable',
  path: '/api/financing-cases/{financingCaseId}/document-requests/{type}/{itemId}/not-available',
  summary: 'Declare a requested item not available',
  description:
    'Only for an optional, partner-visible, pending item of the case: a required or no longer pending item is 422; an unknown or operator-internal item, or an item of another type than {type}, is 404.',
  params: z.object({ financingCaseId: caseId, type: z.enum(ITEM_TYPES).describe('Type of the item'), itemId: integerId('Id of the requested item') }),
  returns: itemAnswer('The item, now not_available'),
  problems: [400, 422],
});

export const operations = [
  uploadDocument,
  listDocuments,
  getDocument,
  downloadDocument,
  deleteDocument,
  listDocumentRequests,
  downloadTemplate,
  respondToInformation,
  declareNotAvailable,
];
