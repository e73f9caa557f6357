import { Readable } from 'node:stream';
import { forbidden, invalidInput, notFound, ruleViolation, toProblem } from '@rental/problem';
import { requireCase } from './case-scope';
import type { DocumentsDependencies } from './documents';
import { FinancingDocument, acceptsUpload, isVisibleItem } from './model';
import { renderTextPdf } from './pdf';
import type { CallerContext, CaseCleanup } from './ports';
import { discard, storeThenRecord } from './storage-consistency';
import { uploadRejected } from './upload-rejection';

/** The service that owns financing cases (its signed gRPC identity). */
const CASE_OWNER = 'case-workflow';

/**
 * The document side of case-workflow's sandbox scenarios. Each checks what the specification
 * asks of the scenario and leaves the mapping to HTTP to case-workflow: not_found → 404,
 * rule_violation → 422.
 */

/** document_rejected: a PENDING_REVIEW document of the case becomes REJECTED; its request reopens. */
export async function rejectDocument(
  deps: Pick<DocumentsDependencies, 'documents' | 'now'>,
  input: { financingCaseId: string; documentId: number; reason: string; context: CallerContext },
): Promise<{ document: FinancingDocument; reopenedItemId: number | null }> {
  const existing = await deps.documents.find(input.documentId);
  const foreign =
    !existing || existing.financingCaseId !== input.financingCaseId || (input.context.partnerId && existing.partnerId !== input.context.partnerId);
  if (foreign) throw notFound('document.not_found', `No document ${input.documentId} on financing case ${input.financingCaseId}.`);
  const result = await deps.documents.reject(input.financingCaseId, input.documentId, input.reason.trim() || null, deps.now().toISOString());
  if (result.outcome === 'not_found') throw notFound('document.not_found', `No document ${input.documentId} on financing case ${input.financingCaseId}.`);
  if (result.outcome === 'not_rejectable') {
    const message = `Document ${input.documentId} is ${result.reviewStatus ?? 'without review status'}; only a PENDING_REVIEW document can be rejected.`;
    throw ruleViolation('document.not_rejectable', message, [{ propertyPath: 'documentId', code: 'document.not_rejectable', message }]);
  }
  return { document: result.document, reopenedItemId: result.reopenedItemId };
}

/**
 * upload_rejected_type / upload_rejected_size: the problem document a real upload of the wrong
 * type or size gets (same type, detail and violations), with the 400 status the specification
 * gives these scenarios. Only for an open requested document or fill-and-return of the case.
 */
export async function describeUploadRejection(
  deps: Pick<DocumentsDependencies, 'items'>,
  input: { financingCaseId: string; itemId: number; reason: string; context: CallerContext },
): Promise<string> {
  if (input.reason !== 'type' && input.reason !== 'size') throw invalidInput('document.unknown_rejection', 'reason must be type or size.');
  const item = input.itemId > 0 ? await deps.items.find(input.itemId) : undefined;
  const open =
    item &&
    item.financingCaseId === input.financingCaseId &&
    (!input.context.partnerId || item.partnerId === input.context.partnerId) &&
    isVisibleItem(item) &&
    acceptsUpload(item);
  if (!open) {
    const message = `No open requested document or fill-and-return ${input.itemId} on financing case ${input.financingCaseId}.`;
    throw ruleViolation('document_request.not_open', message, [{ propertyPath: 'documentId', code: 'document_request.not_open', message }]);
  }
  return JSON.stringify(toProblem(uploadRejected(input.reason, 'invalid_input')));
}

/**
 * Stores a signed-contract PDF and records it as the case's signed_contract, verified and
 * uploaded by the system; when the case has one already, the first is kept and returned.
 */
async function recordSignedContract(
  deps: DocumentsDependencies,
  input: { financingCaseId: string; partnerId: string; pdf: Buffer; originalName: string; description: string; simulated: boolean; now: Date },
): Promise<{ document: FinancingDocument; created: boolean }> {
  const { pdf } = input;
  const key = deps.objectKey('signed-contracts', input.financingCaseId);
  const result = await storeThenRecord(
    deps,
    [{ key, source: { size: pdf.length, mimeType: 'application/pdf', open: () => Readable.from([pdf]) } }],
    async () => {
      const inserted = await deps.documents.insertSignedContract({
        financingCaseId: input.financingCaseId,
        partnerId: input.partnerId,
        originalName: input.originalName,
        mimeType: 'application/pdf',
        fileSize: pdf.length,
        category: 'signed_contract',
        description: input.description,
        uploadedAt: input.now.toISOString(),
        uploadedBy: 'system',
        reviewStatus: 'VERIFIED',
        objectKey: key,
        requestedItemId: null,
        simulated: input.simulated,
        signed: true,
      });
      return { outcome: inserted.created ? 'stored' : 'existing', ...inserted };
    },
  );
  return { document: result.document, created: result.created };
}

/** signed: the signed-contract PDF of the case, attached once; a repeat returns the first. */
export async function attachSignedContract(
  deps: DocumentsDependencies,
  input: { financingCaseId: string; contractId: string; context: CallerContext },
): Promise<{ document: FinancingDocument; created: boolean }> {
  const existing = await deps.documents.findSimulatedSignedContract(input.financingCaseId);
  if (existing && input.context.partnerId && existing.partnerId !== input.context.partnerId)
    throw forbidden('financing_case.forbidden', 'The financing case belongs to another partner.');
  if (existing) return { document: existing, created: false };
  const access = await requireCase(deps.cases, input.financingCaseId, input.context);
  const now = deps.now();
  const pdf = await renderTextPdf({
    title: 'Rental contract (signed)',
    subject: `Financing case ${input.financingCaseId}`,
    lines: [
      `Financing case ${input.financingCaseId}`,
      ...(input.contractId ? [`Contract ${input.contractId}`] : []),
      `Signed ${now.toISOString().slice(0, 10)}`,
      'Sandbox document: simulated signature, not legally binding.',
    ],
  });
  return recordSignedContract(deps, {
    financingCaseId: input.financingCaseId,
    partnerId: access.partnerId,
    pdf,
    originalName: `signed-contract-${input.contractId || input.financingCaseId}.pdf`,
    description: 'Signed rental contract (sandbox simulation)',
    simulated: true,
    now,
  });
}

/**
 * The signing provider's signed contract: its PDF byte for byte, visible to the partner as the
 * case's signed_contract; a repeat (the provider's retry) returns the first.
 */
export async function storeSignedContract(
  deps: DocumentsDependencies,
  input: { financingCaseId: string; contractId: string; fileName: string; content: Buffer; context: CallerContext },
): Promise<{ document: FinancingDocument; created: boolean }> {
  const existing = await deps.documents.findProviderSignedContract(input.financingCaseId);
  if (existing) return { document: existing, created: false };
  if (!input.content.subarray(0, 5).equals(Buffer.from('%PDF-'))) throw invalidInput('document.not_pdf', 'The signed contract is not a PDF document.');
  const access = await caseOfOwnerCall(deps, input.financingCaseId, input.context);
  return recordSignedContract(deps, {
    financingCaseId: input.financingCaseId,
    partnerId: access.partnerId,
    pdf: input.content,
    originalName: input.fileName || `signed-contract-${input.contractId}.pdf`,
    description: 'Signed rental contract',
    simulated: false,
    now: deps.now(),
  });
}

/**
 * case-workflow, the owner of cases, calls while it holds the case's lock and names the case's
 * partner: asking it back about the case would take a second connection of its pool, and as many
 * such calls at once as its pool holds would wait on each other until they time out.
 */
async function caseOfOwnerCall(deps: DocumentsDependencies, financingCaseId: string, context: CallerContext): Promise<{ partnerId: string }> {
  if (context.caller === CASE_OWNER && context.partnerId) return { partnerId: context.partnerId };
  return requireCase(deps.cases, financingCaseId, context);
}

/** reset: open requests and simulated signed contracts of the case are removed, rows and objects. */
export async function resetCase(
  deps: DocumentsDependencies & { cleanup: CaseCleanup },
  input: { financingCaseId: string; context: CallerContext },
): Promise<{ removedItems: number; removedDocuments: number }> {
  await requireCase(deps.cases, input.financingCaseId, input.context);
  const { removedItems, removedDocuments, objectKeys } = await deps.cleanup.resetCase(input.financingCaseId);
  await discard(deps, objectKeys);
  return { removedItems, removedDocuments };
}
