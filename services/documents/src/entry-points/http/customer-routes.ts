import { z } from 'zod';
import { OperationRouter, defineOperation, operationFamily } from '@rental/http';
import { isDomainError } from '@rental/problem';
import { CUSTOMER_API, customerTokenParams } from '@rental/proto';
import { listCustomerItems, openCustomerLink, uploadCustomerDocument } from '../../domain/customer';
import type { DocumentsDependencies } from '../../domain/documents';
import type { FinancingDocument } from '../../domain/model';
import { MultipartOptions, receiveUpload } from './multipart';

// The customer's uploads (/customer/v1, the link token is the credential) and the upload form of
// the customer's page (/c/{token}/documents). Not part of the partner API. The customer's answers
// go through case-workflow (AnswerCustomerInformation), which answers them with the customer view.

const customerDocumentSchema = z
  .object({
    id: z.number().int(),
    fileName: z.string(),
    mimeType: z.string(),
    fileSize: z.number().int(),
    requestedDocumentId: z.number().int().nullable(),
    uploadedAt: z.string(),
  })
  .meta({ id: 'CustomerDocument' });

const uploadCustomerDocumentOperation = operationFamily(CUSTOMER_API)({
  operationId: 'uploadCustomerDocument',
  method: 'post',
  path: '/customer/v1/quotes/{token}/documents',
  summary: 'Upload a document the customer was asked for',
  body: {
    schema: z.object({ file: z.string(), requestedDocumentId: z.string(), category: z.string().optional(), description: z.string().optional() }),
    contentType: 'multipart/form-data',
    required: true,
  },
  returns: { 201: { description: 'Stored', schema: customerDocumentSchema } },
  problems: [400, 413, 415],
});

const uploadOnPage = defineOperation({
  operationId: 'customerPageUpload',
  method: 'post',
  path: '/c/{token}/documents',
  summary: 'Upload from the customer page',
  tags: ['Customer page'],
  params: customerTokenParams,
  responses: {},
});

const presentCustomerDocument = (document: FinancingDocument) => ({
  id: document.id,
  fileName: document.originalName,
  mimeType: document.mimeType,
  fileSize: document.fileSize,
  requestedDocumentId: document.requestedItemId,
  uploadedAt: document.uploadedAt,
});

const seeOther = (location: string) => ({ status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });

export function customerRoutes(deps: DocumentsDependencies, uploads: MultipartOptions, router: OperationRouter): OperationRouter {
  return router
    .handle(uploadCustomerDocumentOperation, async ({ params, requestId, req }) => {
      // The link first: an unknown or expired one is refused before a byte of the body is read.
      const access = await openCustomerLink(deps, params.token, requestId);
      const received = await receiveUpload(req, uploads);
      try {
        return { status: 201, body: presentCustomerDocument(await uploadCustomerDocument(deps, access, received.form)) };
      } finally {
        await received.discard();
      }
    })
    .handle(uploadOnPage, async ({ params, requestId, req }) => {
      const page = `/c/${encodeURIComponent(params.token)}`;
      // The page itself tells an unknown or expired link apart, for people.
      const access = await openCustomerLink(deps, params.token, requestId).catch((error: unknown) => {
        if (isDomainError(error) && (error.kind === 'not_found' || error.kind === 'gone')) return undefined;
        throw error;
      });
      if (!access) return seeOther(page);
      try {
        const received = await receiveUpload(req, uploads);
        try {
          await uploadCustomerDocument(deps, access, received.form);
          return seeOther(`${page}?done=uploaded`);
        } finally {
          await received.discard();
        }
      } catch (error) {
        if (isDomainError(error) && error.kind === 'not_found') return seeOther(`${page}?error=upload_closed`);
        if (isDomainError(error) && error.kind !== 'unavailable' && error.kind !== 'internal') return seeOther(`${page}?error=upload_invalid`);
        throw error;
      }
    });
}

export { listCustomerItems };
