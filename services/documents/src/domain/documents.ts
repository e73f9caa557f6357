import type { Readable } from 'node:stream';
import { choiceViolation, forbidden, notFound, requiredViolation, validationFailed, Violation } from '@rental/problem';
import { DOCUMENT_CATEGORIES, isDocumentCategory } from '@rental/proto';
import { PLATFORM_CATEGORIES } from './categories';
import { requireCaseOfPartner } from './case-scope';
import { sanitizeOriginalName } from './filename';
import { FileSource, FinancingDocument, RequestItem, acceptsUpload, isVisibleItem, isVisibleToPartner } from './model';
import type { CaseDirectory, DocumentStore, ItemStore, ObjectStore, PendingObjects } from './ports';
import { storeThenRecord } from './storage-consistency';

const MAX_DESCRIPTION_LENGTH = 2000;

export interface DocumentsDependencies {
  cases: CaseDirectory;
  documents: DocumentStore;
  items: ItemStore;
  storage: ObjectStore;
  pending: PendingObjects;
  now(): Date;
  objectKey(kind: 'documents' | 'templates' | 'signed-contracts', financingCaseId: string): string;
}

/** What the multipart adapter read: the text parts as sent, the file once spooled and checked. */
export interface UploadForm {
  category?: string;
  description?: string;
  requestedDocumentId?: string;
  file?: { originalName?: string; source: FileSource };
  /** Parts the form does not have, and a file sent as a text part. */
  violations: Violation[];
}

const INTEGER_ID = /^[1-9][0-9]{0,9}$/;
const MAX_ID = 2_147_483_647;

function formViolations(form: UploadForm): Violation[] {
  const violations = [...form.violations];
  if (!form.file && !violations.some((v) => v.propertyPath === 'file')) {
    violations.push({ propertyPath: 'file', code: 'validation.required', message: 'A file (PDF, PNG or JPEG, at most 10 MB) is required.' });
  }
  if (form.category === undefined || form.category === '') {
    violations.push(requiredViolation('category'));
  } else if (!isDocumentCategory(form.category)) {
    violations.push(choiceViolation('category', DOCUMENT_CATEGORIES));
  } else if (PLATFORM_CATEGORIES.includes(form.category)) {
    violations.push({
      propertyPath: 'category',
      code: 'document.category_reserved',
      message: `${form.category} documents are provided by the platform; partners cannot upload them.`,
    });
  }
  if (form.description !== undefined && [...form.description].length > MAX_DESCRIPTION_LENGTH) {
    violations.push({
      propertyPath: 'description',
      code: 'validation.too_big',
      message: `This value is too long; at most ${MAX_DESCRIPTION_LENGTH} characters.`,
    });
  }
  if (form.requestedDocumentId && (!INTEGER_ID.test(form.requestedDocumentId) || Number(form.requestedDocumentId) > MAX_ID)) {
    violations.push({ propertyPath: 'requestedDocumentId', code: 'validation.type', message: 'This value should be of type integer.' });
  }
  return violations;
}

async function requestToFulfil(deps: DocumentsDependencies, financingCaseId: string, partnerId: string, rawId: string): Promise<RequestItem> {
  const item = await deps.items.find(Number(rawId));
  if (!item || item.financingCaseId !== financingCaseId || item.partnerId !== partnerId || !isVisibleItem(item) || !acceptsUpload(item)) {
    throw notFound('document_request.not_found', `No open requested document or fill-and-return ${rawId} on this financing case.`);
  }
  return item;
}

/**
 * POST documents: the file is stored first under a fresh key, then its row is inserted (and the
 * request it answers updated) in one transaction; a failure after the bytes were written
 * removes them again, so no object lives without its row and no row without its object.
 */
export async function uploadDocument(
  deps: DocumentsDependencies,
  input: { financingCaseId: string; partnerId: string; requestId?: string; form: UploadForm },
): Promise<FinancingDocument> {
  const { financingCaseId, partnerId, form } = input;
  const violations = formViolations(form);
  if (violations.length > 0 || !form.file || !form.category) throw validationFailed(violations);
  const item = form.requestedDocumentId ? await requestToFulfil(deps, financingCaseId, partnerId, form.requestedDocumentId) : undefined;
  return storeUpload(deps, { financingCaseId, partnerId, form, item, uploadedBy: 'partner' });
}

/** The checks of a customer's upload form: the partner's, with requestedDocumentId required. */
export function customerFormViolations(form: UploadForm): Violation[] {
  const violations = formViolations(form);
  if (!form.requestedDocumentId && !violations.some((v) => v.propertyPath === 'requestedDocumentId')) {
    violations.push({ propertyPath: 'requestedDocumentId', code: 'validation.required', message: 'The requested document this file answers is required.' });
  }
  return violations;
}

/** Stores the bytes, then the row (and the item it answers), as one unit; see uploadDocument. */
export async function storeUpload(
  deps: DocumentsDependencies,
  input: { financingCaseId: string; partnerId: string; form: UploadForm; item: RequestItem | undefined; uploadedBy: 'partner' | 'customer' },
): Promise<FinancingDocument> {
  const { financingCaseId, partnerId, form, item } = input;
  if (!form.file || !form.category) throw validationFailed(formViolations(form));
  const { source } = form.file;
  const objectKey = deps.objectKey('documents', financingCaseId);
  const result = await storeThenRecord(deps, [{ key: objectKey, source }], () =>
    deps.documents.recordUpload({
      financingCaseId,
      partnerId,
      originalName: sanitizeOriginalName(form.file?.originalName, source.mimeType),
      mimeType: source.mimeType,
      fileSize: source.size,
      category: form.category as string,
      description: form.description ? form.description : null,
      uploadedAt: deps.now().toISOString(),
      uploadedBy: input.uploadedBy,
      reviewStatus: 'PENDING_REVIEW',
      objectKey,
      requestedItemId: item?.id ?? null,
      simulated: false,
      signed: false,
    }),
  );
  if (result.outcome === 'item_closed') {
    throw notFound('document_request.not_found', `No open requested document or fill-and-return ${form.requestedDocumentId} on this financing case.`);
  }
  return result.document;
}

/** GET documents of a case: what the visibility rule lets the partner see, oldest first. */
export async function listDocuments(
  deps: Pick<DocumentsDependencies, 'cases' | 'documents'>,
  input: { financingCaseId: string; partnerId: string; requestId?: string; limit: number; offset: number },
): Promise<FinancingDocument[]> {
  await requireCaseOfPartner(deps.cases, input.financingCaseId, input.partnerId, input.requestId);
  const documents = await deps.documents.listByCase(input.financingCaseId);
  return documents.filter((document) => isVisibleToPartner(document, input.partnerId)).slice(input.offset, input.offset + input.limit);
}

/** Unknown and hidden documents are 404 alike; a visible document of another partner is 403. */
export async function findDocument(deps: Pick<DocumentsDependencies, 'documents'>, partnerId: string, id: number): Promise<FinancingDocument> {
  const document = await deps.documents.find(id);
  if (!document || !isVisibleToPartner(document, document.partnerId)) throw notFound('document.not_found', `No document ${id}.`);
  if (document.partnerId !== partnerId) throw forbidden('document.forbidden', 'The document belongs to another partner.');
  return document;
}

export async function openDocument(
  deps: Pick<DocumentsDependencies, 'documents' | 'storage'>,
  partnerId: string,
  id: number,
): Promise<{ document: FinancingDocument; content: Readable }> {
  const document = await findDocument(deps, partnerId, id);
  return { document, content: await deps.storage.get(document.objectKey) };
}
