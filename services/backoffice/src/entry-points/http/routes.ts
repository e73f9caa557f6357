import { Readable } from 'node:stream';
import { OperationRouter, pageWindow } from '@rental/http';
import { authorizeOperator } from './authenticate';
import { contentDisposition } from './content-disposition';
import * as use from '../../domain/operations';
import type { BackofficeDependencies } from '../../domain/ports';
import { created, ok, operatorOf } from './replies';
import type { PartnerAccessPort } from '../../domain/partners';
import { partnerRoutes } from './partner-routes';
import {
  callbackOperation,
  cancelOperation,
  caseOperation,
  closeCallbackOperation,
  contractTransitionOperation,
  downloadOperation,
  noteOperation,
  overrideOperation,
  queueOperation,
  requestsOperation,
  resubmitOperation,
  reviewOperation,
  transitionOperation,
  transmitOperation,
} from './contract';

/** The back office's API: each route takes the checked body, calls one use case, answers its result. */
export function backofficeRoutes(deps: BackofficeDependencies, access: PartnerAccessPort): OperationRouter {
  return partnerRoutes(new OperationRouter({ authorization: authorizeOperator }), access)
    .handle(queueOperation, async ({ query }) => {
      const statuses = (query.status ?? '')
        .split(',')
        .map((status) => status.trim())
        .filter(Boolean);
      return ok(
        await use.queue(deps, {
          statuses,
          partnerId: query.partnerId ?? null,
          lenderSubmissionStatus: query.lenderSubmissionStatus ?? null,
          overdue: query.overdue === 'true',
          query: query.q?.trim() || null,
          ...pageWindow(query.page),
        }),
      );
    })
    .handle(caseOperation, async ({ params }) => ok(await use.showCase(deps, params.id)))
    .handle(transitionOperation, async ({ params, body, res }) =>
      ok(await use.transition(deps, operatorOf(res), { financingCaseId: params.id, transition: body.transition, reason: body.reason ?? null })),
    )
    .handle(overrideOperation, async ({ params, body, res }) =>
      ok(await use.override(deps, operatorOf(res), { financingCaseId: params.id, reason: body.reason })),
    )
    .handle(cancelOperation, async ({ params, body, res }) => ok(await use.cancel(deps, operatorOf(res), { financingCaseId: params.id, reason: body.reason })))
    .handle(requestsOperation, async ({ params, body, res }) =>
      created(
        await use.createRequests(deps, operatorOf(res), {
          financingCaseId: params.id,
          items: body.items.map((item) => ({
            type: item.type,
            label: item.label,
            category: item.category,
            question: item.question,
            optional: item.optional,
            targetAudience: item.targetAudience,
            dueAt: item.dueAt ?? null,
            template: item.template ? { fileName: item.template.fileName, content: Buffer.from(item.template.contentBase64, 'base64') } : null,
          })),
        }),
      ),
    )
    .handle(reviewOperation, async ({ params, body, res }) =>
      ok(await use.reviewDocument(deps, operatorOf(res), { documentId: params.id, status: body.status, reason: body.reason ?? null })),
    )
    .handle(downloadOperation, async ({ params }) => {
      const file = await use.downloadDocument(deps, params.id);
      return {
        status: 200,
        stream: Readable.from([file.content]),
        headers: {
          'Content-Type': file.mimeType,
          'Content-Length': String(file.content.length),
          'Content-Disposition': contentDisposition(file.originalName),
          'Cache-Control': 'private, no-store',
        },
      };
    })
    .handle(transmitOperation, async ({ params, body, res }) =>
      ok(await use.transmit(deps, operatorOf(res), { financingCaseId: params.id, items: body.items })),
    )
    .handle(resubmitOperation, async ({ params, res }) => ok(await use.resubmit(deps, operatorOf(res), params.id)))
    .handle(callbackOperation, async ({ params, body, res }) =>
      created(await use.createCallbackRequest(deps, operatorOf(res), { financingCaseId: params.id, items: body.items, note: body.note || null })),
    )
    .handle(closeCallbackOperation, async ({ params, res }) => ok(await use.closeCallbackRequest(deps, operatorOf(res), params.id)))
    .handle(noteOperation, async ({ params, body, res }) => created(await use.addNote(deps, operatorOf(res), { financingCaseId: params.id, text: body.text })))
    .handle(contractTransitionOperation, async ({ params, body, res }) =>
      ok(await use.moveContract(deps, operatorOf(res), { contractId: params.id, to: body.to })),
    );
}
