import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { defineOperation, OperationRouter } from '@rental/http';
import { isDomainError } from '@rental/problem';
import { customerTokenParams } from '@rental/proto';
import { z } from 'zod';
import { CustomerDependencies, acceptOffer, customerFeedbackBody, giveFeedback, readCustomerView } from '../../domain/customer';
import { acceptCustomerQuote, downloadCustomerOffer, getCustomerQuote, giveCustomerFeedback } from './customer-contract';
import { linkProblemPage, offerPage } from './customer-page';
import { presentCustomerView } from './customer-presenters';
import { renderOfferPdf } from './offer-pdf';

// The page's own routes: HTML for people, not part of any API description.
const showPage = defineOperation({ operationId: 'customerPage', method: 'get', path: '/c/{token}', summary: 'The customer page', tags: ['Customer page'], params: customerTokenParams, responses: {} });
const acceptOnPage = defineOperation({ operationId: 'customerPageAccept', method: 'post', path: '/c/{token}/accept', summary: 'Accept from the page', tags: ['Customer page'], params: customerTokenParams, responses: {} });
const feedbackOnPage = defineOperation({ operationId: 'customerPageFeedback', method: 'post', path: '/c/{token}/feedback', summary: 'Feedback from the page', tags: ['Customer page'], params: customerTokenParams, responses: {} });

const MAX_FORM_BYTES = 16 * 1024;

/** A urlencoded form of the page (small: a text of at most 2000 characters). */
async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) break;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const html = (status: number, body: string) => ({
  status,
  stream: Readable.from([body]),
  headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' },
});

const seeOther = (location: string) => ({ status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });

/** A link problem as a page; any other error goes on to the problem+json handler. */
function pageForLinkProblem(error: unknown) {
  if (isDomainError(error) && error.kind === 'gone') return html(410, linkProblemPage('expired'));
  if (isDomainError(error) && error.kind === 'not_found') return html(404, linkProblemPage('unknown'));
  throw error;
}

const DONE_CODES = new Set(['accepted', 'changes_requested', 'rejected', 'uploaded']);
const UPLOAD_ERRORS: Record<string, string> = {
  upload_invalid: 'The upload did not work: choose a PDF, PNG or JPEG file of at most 10 MB.',
  upload_closed: 'This document is no longer needed, or was already sent.',
};

/** The customer's API and page. The link token is the only credential: every route opens it first (404 unknown, 410 expired). */
export function customerRoutes(deps: CustomerDependencies, router: OperationRouter): OperationRouter {
  return router
    .handle(getCustomerQuote, async ({ params }) => ({ status: 200, body: presentCustomerView(await readCustomerView(deps, params.token)) }))
    .handle(acceptCustomerQuote, async ({ params }) => ({ status: 200, body: presentCustomerView(await acceptOffer(deps, params.token)) }))
    .handle(giveCustomerFeedback, async ({ params, body }) => ({ status: 200, body: presentCustomerView(await giveFeedback(deps, params.token, body)) }))
    .handle(downloadCustomerOffer, async ({ params }) => {
      const view = await readCustomerView(deps, params.token);
      const bytes = Buffer.from(await renderOfferPdf(view.details, view.partnerName));
      return {
        status: 200,
        stream: Readable.from([bytes]),
        headers: {
          'Content-Type': 'application/pdf',
          'Content-Length': String(bytes.length),
          'Content-Disposition': `attachment; filename="offer-${view.details.quote.quoteNumber.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf"`,
          'Cache-Control': 'private, no-store',
        },
      };
    })
    .handle(showPage, async ({ params, query }) => {
      try {
        const view = presentCustomerView(await readCustomerView(deps, params.token));
        const done = typeof query.done === 'string' && DONE_CODES.has(query.done) ? query.done : undefined;
        const uploadError = typeof query.error === 'string' ? UPLOAD_ERRORS[query.error] : undefined;
        return html(200, offerPage(view, params.token, { done, errors: uploadError ? [{ field: null, message: uploadError }] : [] }));
      } catch (error) {
        return pageForLinkProblem(error);
      }
    })
    .handle(acceptOnPage, async ({ params }) => {
      try {
        await acceptOffer(deps, params.token);
        return seeOther(`/c/${encodeURIComponent(params.token)}?done=accepted`);
      } catch (error) {
        if (isDomainError(error) && (error.kind === 'rule_violation' || error.kind === 'forbidden')) return seeOther(`/c/${encodeURIComponent(params.token)}`);
        return pageForLinkProblem(error);
      }
    })
    .handle(feedbackOnPage, async ({ params, req }) => {
      const form = await readForm(req);
      const parsed = customerFeedbackBody.safeParse({ action: form.get('action') ?? undefined, text: form.get('text') ?? undefined });
      const text = form.get('text') ?? '';
      try {
        if (!parsed.success) throw parsed.error;
        await giveFeedback(deps, params.token, parsed.data);
        return seeOther(`/c/${encodeURIComponent(params.token)}?done=${parsed.data.action === 'request_changes' ? 'changes_requested' : 'rejected'}`);
      } catch (error) {
        if (error instanceof z.ZodError || (isDomainError(error) && error.kind === 'rule_violation')) {
          const view = presentCustomerView(await readCustomerView(deps, params.token));
          const errors = isDomainError(error) && error.violations?.length
            ? error.violations.map((violation) => ({ field: violation.propertyPath === 'text' ? 'text' : null, message: violation.propertyPath === 'text' ? 'Tell your dealer what should change.' : violation.message }))
            : [{ field: null, message: 'Choose whether to ask for changes or to reject the offer.' }];
          return html(422, offerPage(view, params.token, { errors, text }));
        }
        if (isDomainError(error) && error.kind === 'forbidden') return seeOther(`/c/${encodeURIComponent(params.token)}`);
        return pageForLinkProblem(error);
      }
    });
}
