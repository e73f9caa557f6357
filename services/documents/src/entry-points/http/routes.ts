import { OperationRouter, pageWindow } from '@rental/http';
import { requireCaseOfPartner } from '../../domain/case-scope';
import { DocumentsDependencies, findDocument, listDocuments as listVisibleDocuments, openDocument, uploadDocument as upload } from '../../domain/documents';
import { contentDisposition } from '../../domain/filename';
import { declareNotAvailable as notAvailable, listRequestItems, openTemplate, respondToInformation as respond } from '../../domain/request-items';
import {
  declareNotAvailable,
  downloadDocument,
  downloadTemplate,
  getDocument,
  listDocumentRequests,
  listDocuments,
  respondToInformation,
  uploadDocument,
} from './contract';
import { MultipartOptions, receiveUpload } from './multipart';
import { documentPath, presentDocument, presentItem } from './presenters';
import { customerRoutes } from './customer-routes';

const fileHeaders = (mimeType: string, size: number, name: string) => ({
  'Content-Type': mimeType,
  'Content-Length': String(size),
  'Content-Disposition': contentDisposition(name),
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'private, no-store',
});

export function documentsRoutes(deps: DocumentsDependencies, uploads: MultipartOptions): OperationRouter {
  const router = new OperationRouter()
    .handle(uploadDocument, async ({ params, partner, requestId, req }) => {
      // Scope first: a foreign or unknown case is refused before a byte of the body is read.
      await requireCaseOfPartner(deps.cases, params.financingCaseId, partner.id, requestId);
      const received = await receiveUpload(req, uploads);
      try {
        const document = await upload(deps, { financingCaseId: params.financingCaseId, partnerId: partner.id, requestId, form: received.form });
        return { status: 201, body: presentDocument(document), headers: { Location: documentPath(document.id) } };
      } finally {
        await received.discard();
      }
    })
    .handle(listDocuments, async ({ params, query, partner, requestId }) => {
      const documents = await listVisibleDocuments(deps, {
        financingCaseId: params.financingCaseId,
        partnerId: partner.id,
        requestId,
        ...pageWindow(query.page),
      });
      return { status: 200, body: documents.map(presentDocument) };
    })
    .handle(getDocument, async ({ params, partner }) => {
      return { status: 200, body: presentDocument(await findDocument(deps, partner.id, params.id)) };
    })
    .handle(downloadDocument, async ({ params, partner }) => {
      const { document, content } = await openDocument(deps, partner.id, params.id);
      return { status: 200, stream: content, headers: fileHeaders(document.mimeType, document.fileSize, document.originalName) };
    })
    .handle(listDocumentRequests, async ({ params, query, partner, requestId }) => {
      const { limit, offset } = pageWindow(query.page);
      const items = await listRequestItems(deps, { financingCaseId: params.financingCaseId, partnerId: partner.id, requestId });
      return { status: 200, body: items.slice(offset, offset + limit).map(presentItem) };
    })
    .handle(downloadTemplate, async ({ params, partner, requestId }) => {
      const { template, content } = await openTemplate(deps, {
        financingCaseId: params.financingCaseId,
        partnerId: partner.id,
        requestId,
        templateId: params.templateId,
      });
      return { status: 200, stream: content, headers: fileHeaders(template.mimeType, template.fileSize, template.originalName) };
    })
    .handle(respondToInformation, async ({ params, body, partner, requestId }) => {
      const view = await respond(deps, {
        financingCaseId: params.financingCaseId,
        partnerId: partner.id,
        requestId,
        itemId: params.informationId,
        response: body.response,
      });
      return { status: 200, body: presentItem(view) };
    })
    .handle(declareNotAvailable, async ({ params, partner, requestId }) => {
      const view = await notAvailable(deps, {
        financingCaseId: params.financingCaseId,
        partnerId: partner.id,
        requestId,
        itemId: params.itemId,
        itemType: params.type,
      });
      return { status: 200, body: presentItem(view) };
    });
  return customerRoutes(deps, uploads, router);
}
