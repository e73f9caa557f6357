import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { defineOperation, OperationRouter } from '@rental/http';
import { UNSTORABLE_TEXT_MESSAGE, firstUnstorableText, isDomainError, validationFailed } from '@rental/problem';
import { customerTokenParams } from '@rental/proto';
import { z } from 'zod';
import {
  CustomerAnswer,
  CustomerDependencies,
  acceptOffer,
  answerQuestion,
  customerAnswerBody,
  customerFeedbackBody,
  giveFeedback,
  readCustomerView,
} from '../../domain/customer/customer';
import { acceptCustomerQuote, answerCustomerQuestion, downloadCustomerOffer, getCustomerQuote, giveCustomerFeedback } from './customer-contract';
import { CUSTOMER_PAGE_POLICY, linkProblemPage, offerPage } from './customer-page';
import { presentCustomerView } from './customer-presenters';
import { renderOfferPdf } from './offer-pdf';

// The page's own routes: HTML for people, not part of any API description.
const showPage = defineOperation({
  operationId: 'customerPage',
  method: 'get',
  path: '/c/{token}',
  summary: 'The customer page',
  tags: ['Customer page'],
  params: customerTokenParams,
  responses: {},
});
const acceptOnPage = defineOperation({
  operationId: 'customerPageAccept',
  method: 'post',
  path: '/c/{token}/accept',
  summary: 'Accept from the page',
  tags: ['Customer page'],
  params: customerTokenParams,
  responses: {},
});
const feedbackOnPage = defineOperation({
  operationId: 'customerPageFeedback',
  method: 'post',
  path: '/c/{token}/feedback',
  summary: 'Feedback from the page',
  tags: ['Customer page'],
  params: customerTokenParams,
  responses: {},
});
const answerOnPage = defineOperation({
  operationId: 'customerPageAnswer',
  method: 'post',
  path: '/c/{token}/information/{informationId}',
  summary: 'Answer a question from the page',
  tags: ['Customer page'],
  params: answerCustomerQuestion.params,
  responses: {},
});

/** The longest answer (10,000 characters), percent-encoded. */
const MAX_FORM_BYTES = 96 * 1024;

/** A urlencoded form of the page (small: one text). */
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
  headers: {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'Content-Security-Policy': CUSTOMER_PAGE_POLICY,
    'X-Frame-Options': 'DENY',
  },
});

const seeOther = (location: string) => ({ status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });

/** A link problem as a page; any other error goes on to the problem+json handler. */
function pageForLinkProblem(error: unknown) {
  if (isDomainError(error) && error.kind === 'gone') return html(410, linkProblemPage('expired'));
  if (isDomainError(error) && error.kind === 'not_found') return html(404, linkProblemPage('unknown'));
  throw error;
}

/** What the page says about the feedback text, by violation code. */
const TEXT_REQUIRED = 'Tell your dealer what should change.';
const TEXT_MESSAGES: Record<string, string> = {
  'validation.required': TEXT_REQUIRED,
  'validation.invalid_text': 'The text cannot contain a NUL character; remove it and send again.',
};

const DONE_CODES = new Set(['accepted', 'changes_requested', 'rejected', 'uploaded', 'answered']);
const REQUEST_ERRORS: Record<string, string> = {
  upload_invalid: 'The upload did not work: choose a PDF, PNG or JPEG file of at most 10 MB.',
  upload_closed: 'This document is no longer needed, or was already sent.',
  answer_closed: 'This question is no longer open, or was already answered.',
};

/** The answer of the page's form as the API reads it, or what the page says about it. */
function readAnswer(response: string): { answer: CustomerAnswer } | { problem: string } {
  if (firstUnstorableText(response) !== undefined) return { problem: 'The answer cannot contain a NUL character; remove it and send again.' };
  const parsed = customerAnswerBody.safeParse({ response });
  return parsed.success ? { answer: parsed.data } : { problem: parsed.error.issues[0]?.message ?? 'Write an answer to the question.' };
}

/** The customer's API and page. The link token is the only credential: every route opens it first (404 unknown, 410 expired). */
export function customerRoutes(deps: CustomerDependencies, router: OperationRouter): OperationRouter {
  return router
    .handle(getCustomerQuote, async ({ params }) => ({ status: 200, body: presentCustomerView(await readCustomerView(deps, params.token)) }))
    .handle(acceptCustomerQuote, async ({ params }) => ({ status: 200, body: presentCustomerView(await acceptOffer(deps, params.token)) }))
    .handle(giveCustomerFeedback, async ({ params, body }) => ({ status: 200, body: presentCustomerView(await giveFeedback(deps, params.token, body)) }))
    .handle(answerCustomerQuestion, async ({ params, body }) => ({
      status: 200,
      body: presentCustomerView(await answerQuestion(deps, params.token, params.informationId, body)),
    }))
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
        const requestError = typeof query.error === 'string' ? REQUEST_ERRORS[query.error] : undefined;
        return html(200, offerPage(view, params.token, { done, errors: requestError ? [{ field: null, message: requestError }] : [] }));
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
        if (firstUnstorableText(text) !== undefined)
          throw validationFailed([{ propertyPath: 'text', code: 'validation.invalid_text', message: UNSTORABLE_TEXT_MESSAGE }]);
        if (!parsed.success) throw parsed.error;
        await giveFeedback(deps, params.token, parsed.data);
        return seeOther(`/c/${encodeURIComponent(params.token)}?done=${parsed.data.action === 'request_changes' ? 'changes_requested' : 'rejected'}`);
      } catch (error) {
        if (error instanceof z.ZodError || (isDomainError(error) && error.kind === 'rule_violation')) {
          const view = presentCustomerView(await readCustomerView(deps, params.token));
          const errors =
            isDomainError(error) && error.violations?.length
              ? error.violations.map((violation) => ({
                  field: violation.propertyPath === 'text' ? 'text' : null,
                  message: violation.propertyPath === 'text' ? (TEXT_MESSAGES[violation.code] ?? TEXT_REQUIRED) : violation.message,
                }))
              : [{ field: null, message: 'Choose whether to ask for changes or to reject the offer.' }];
          // The text comes back into the field, without what made it unstorable.
          return html(422, offerPage(view, params.token, { errors, text: text.replaceAll('\u0000', '') }));
        }
        if (isDomainError(error) && error.kind === 'forbidden') return seeOther(`/c/${encodeURIComponent(params.token)}`);
        return pageForLinkProblem(error);
      }
    })
    .handle(answerOnPage, async ({ params, req }) => {
      const page = `/c/${encodeURIComponent(params.token)}`;
      const response = (await readForm(req)).get('response') ?? '';
      try {
        const read = readAnswer(response);
        if ('problem' in read) {
          const view = presentCustomerView(await readCustomerView(deps, params.token));
          // The text comes back into its field, without what made it unstorable.
          return html(
            422,
            offerPage(view, params.token, {
              errors: [{ field: `answer-${params.informationId}`, message: read.problem }],
              answer: { id: params.informationId, text: response.replaceAll('\u0000', '') },
            }),
          );
        }
        await answerQuestion(deps, params.token, params.informationId, read.answer);
        return seeOther(`${page}?done=answered`);
      } catch (error) {
        // Not (or no longer) a pending question of this offer: the page says so.
        if (
          isDomainError(error) &&
          [error.code, ...(error.violations ?? []).map((violation) => violation.code)].some((code) => code.startsWith('document_request.'))
        )
          return seeOther(`${page}?error=answer_closed`);
        return pageForLinkProblem(error);
      }
    });
}
