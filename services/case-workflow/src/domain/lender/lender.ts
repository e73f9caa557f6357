import { z } from 'zod';
import { amountOfCents } from '@rental/money';
import { badGateway, boundedText, choiceMessage, conflict, emailAddress, notFound, REQUIRED_MESSAGE, ruleViolation } from '@rental/problem';
import { FINANCING_STAGE_CATEGORIES } from '@rental/proto';
import type { Actor, FinancingCase } from '../shared/model';
import type { NewRequestItem, PartnerNames } from '../shared/ports';
import type { CaseLocks, CaseReads } from '../case/ports';
import type { ApplicationSource, CreditBureau, LenderAdapter, LenderAttachments, LenderDirectory, LenderSubmission } from './ports';
import { QuoteStatus, UNDER_FINANCE_REVIEW, statesAllowing } from '../quote/quote-machine';
import type { QuoteWork } from '../quote/ports';
import type { SigningWork } from '../signing/ports';
import { SignedCallbackDependencies, signedEvent } from '../shared/signed-callback';

/** Where a lender's questions move the quote to finance_questions (in finance_questions it stays). */
const ASKABLE = statesAllowing('finance_needs_help');

export const lenderActor = (lender: { id: string; name: string }): Actor => ({ type: 'lender', id: lender.id, name: lender.name });

export interface ApplicationDependencies {
  store: CaseReads;
  applications: ApplicationSource;
  creditBureau: CreditBureau;
  partners: PartnerNames;
  publicBaseUrl: string;
}

/**
 * The `data` of application.submitted: the case, its frozen quote and the customer's credit
 * check. The check is made once per submission and kept, so a retry sends the same result.
 */
export async function lenderApplication(deps: ApplicationDependencies, submission: LenderSubmission, lenderId: string): Promise<Record<string, unknown>> {
  const [financingCase, details] = await Promise.all([deps.store.findCase(submission.financingCaseId), deps.store.findQuoteWithItems(submission.quoteId)]);
  if (!financingCase || !details) throw new Error(`the case ${submission.financingCaseId} of submission ${submission.id} is gone`);
  const { quote, items } = details;
  let creditCheck = await deps.applications.creditCheckOf(submission.id);
  if (!creditCheck) {
    creditCheck = await deps.creditBureau.check(quote.customer, { financingCaseId: financingCase.id });
    await deps.applications.keepCreditCheck(submission.id, creditCheck);
  }
  const { customerType: _customerType, ...customer } = quote.customer;
  return {
    applicationId: submission.applicationId,
    financingCaseId: financingCase.id,
    caseNumber: financingCase.caseNumber,
    quoteId: quote.id,
    quoteNumber: quote.quoteNumber,
    partner: { id: submission.partnerId, name: await deps.partners.nameOf(submission.partnerId) },
    customer,
    productSector: quote.productSector,
    calculationType: quote.calculationType,
    duration: quote.duration,
    paymentInterval: quote.paymentInterval,
    financedAmount: amountOfCents(quote.totalValueCents),
    monthlyRate: amountOfCents(quote.monthlyCostsCents),
    rentalFactor: quote.rentalFactor,
    residualValue: quote.residualValue,
    items: items.map((item) => ({
      position: item.position,
      productNumber: item.productNumber,
      productName: item.productName,
      quantity: item.quantity,
      price: amountOfCents(item.pricePerItemCents),
      total: amountOfCents(item.totalCents),
      categorySlug: item.categorySlug,
    })),
    creditCheck,
    callbackUrl: `${deps.publicBaseUrl}/lender/v1/${encodeURIComponent(lenderId)}/events`,
  };
}

const text = (max: number) => boundedText(max);
const reference = text(64);
const financingCaseId = text(26);

const signatory = z.object({ firstName: text(100), lastName: text(100), email: emailAddress().max(320).nullable().optional() });

const question = z
  .object({
    type: z.enum(['document', 'information']),
    label: z.string().max(255).optional(),
    category: z.string().optional(),
    question: z.string().max(10_000).optional(),
    optional: z.boolean().default(false),
    targetAudience: z.enum(['partner', 'customer']).default('partner'),
  })
  .superRefine((item, context) => {
    if (item.type === 'document') {
      if (!item.label?.trim()) context.addIssue({ code: 'custom', path: ['label'], message: REQUIRED_MESSAGE, params: { code: 'validation.required' } });
      if (item.category === undefined)
        context.addIssue({ code: 'custom', path: ['category'], message: REQUIRED_MESSAGE, params: { code: 'validation.required' } });
      else if (!(FINANCING_STAGE_CATEGORIES as readonly string[]).includes(item.category)) {
        context.addIssue({ code: 'custom', path: ['category'], message: choiceMessage(FINANCING_STAGE_CATEGORIES), params: { code: 'validation.choice' } });
      }
    } else if (!item.question?.trim()) {
      context.addIssue({ code: 'custom', path: ['question'], message: REQUIRED_MESSAGE, params: { code: 'validation.required' } });
    }
  });

const timestamp = z.iso.datetime({ offset: true, message: 'This value is not a valid ISO 8601 date and time.' });

export const lenderEvent = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('application.accepted'),
      timestamp,
      data: z.object({
        financingCaseId,
        reference,
        signingStatement: z.object({ signatories: z.array(signatory).min(1).max(20), minimumSigners: z.number().int().min(1).max(20) }).nullable(),
      }),
    }),
    z.object({
      type: z.literal('application.rejected'),
      timestamp,
      data: z.object({ financingCaseId, reference, reason: z.string().max(1000).nullable() }),
    }),
    z.object({
      type: z.literal('application.questions'),
      timestamp,
      data: z.object({ financingCaseId, reference, items: z.array(question).min(1).max(50) }),
    }),
  ],
  { message: choiceMessage(['application.accepted', 'application.rejected', 'application.questions']) },
);

export type LenderEvent = z.infer<typeof lenderEvent>;

export interface LenderCallbackDependencies extends SignedCallbackDependencies {
  lenders: LenderDirectory;
  /** API_ENVIRONMENT is production: only there do lenders call us. */
  production: boolean;
  /** DOCUMENT_DUE_AFTER in milliseconds. */
  dueAfterMs: number;
  now(): Date;
}

const notApplicable = (event: LenderEvent, status: QuoteStatus) =>
  conflict('lender.decision_not_applicable', `The case's quote is ${status}; ${event.type} cannot be applied to it.`);

/**
 * POST /lender/v1/{lenderId}/events: a lender's decision on an application. Applied at most
 * once per webhook-id (the id is stored with the change, in its transaction); every refusal
 * leaves the case as it was. The items of a question are created at documents before the case
 * is locked (no call while a transaction holds it), keyed by the webhook-id so that the lender's
 * retry after a failure creates none twice; should the case have moved in between, the lender
 * gets the 409 and the items it asked for stay.
 */
export async function receiveLenderEvent(
  deps: LenderCallbackDependencies,
  lenderId: string,
  raw: string,
  headers: Record<string, string | undefined>,
): Promise<void> {
  if (!deps.production) throw notFound('route.not_found', 'Lender callbacks exist only in the production environment.');
  const lender = await deps.lenders.findLender(lenderId);
  if (!lender) throw notFound('lender.not_found', `No lender ${lenderId}.`);
  const { webhookId, event } = signedEvent(deps.signed, lender.webhookSecret, raw, headers, lenderEvent);
  const sender = `lender:${lender.id}`;
  const caseId = event.data.financingCaseId;
  const unknownCase = () => notFound('financing_case.not_found', `No case ${caseId} financed by ${lender.id}.`);
  const found = await deps.store.findCase(caseId);
  if (!found) throw unknownCase();
  const details = await deps.store.findQuoteDetails(found.quoteId);
  if (details?.quote.financingPartnerId !== lender.id) throw unknownCase();
  if (event.type === 'application.questions') {
    if (await deps.store.isCallbackApplied(sender, webhookId)) return;
    if (!UNDER_FINANCE_REVIEW.includes(found.status)) throw notApplicable(event, found.status);
    await createQuestions(deps, found, event.data.items, `${sender}:${webhookId}`);
  }

  const outcome = await deps.store.inCase(
    caseId,
    async (transaction) => {
      const status = transaction.financingCase.status;
      if (!(await transaction.markCallbackApplied(sender, webhookId))) return;
      await applyDecision(transaction, event, status);
      await transaction.setFinancingNumber(event.data.reference);
    },
    { actor: lenderActor(lender), reason: event.type === 'application.rejected' ? event.data.reason : null },
  );
  if (!outcome) throw unknownCase();
}

async function applyDecision(transaction: QuoteWork & SigningWork, event: LenderEvent, status: QuoteStatus): Promise<void> {
  switch (event.type) {
    case 'application.accepted':
      if (status === 'finance_rejected') {
        await transaction.moveQuote('finance_resume');
      } else if (UNDER_FINANCE_REVIEW.includes(status)) {
        await transaction.moveQuote('finance_accept');
      } else {
        throw notApplicable(event, status);
      }
      await transaction.setRejectionReason(null);
      await transaction.activateFinancingResponse('accepted');
      await transaction.setSigningStatement(
        event.data.signingStatement
          ? {
              signatories: event.data.signingStatement.signatories.map((person) => ({
                firstName: person.firstName,
                lastName: person.lastName,
                email: person.email ?? null,
              })),
              minimumSigners: event.data.signingStatement.minimumSigners,
            }
          : null,
      );
      return;
    case 'application.rejected':
      if (!UNDER_FINANCE_REVIEW.includes(status)) throw notApplicable(event, status);
      await transaction.moveQuote('finance_reject');
      await transaction.deactivateFinancingResponses();
      await transaction.setRejectionReason(event.data.reason);
      return;
    case 'application.questions':
      // The items were created before the case was locked.
      if (!UNDER_FINANCE_REVIEW.includes(status)) throw notApplicable(event, status);
      if (ASKABLE.includes(status)) await transaction.moveQuote('finance_needs_help');
      return;
  }
}

async function createQuestions(
  deps: LenderCallbackDependencies,
  financingCase: FinancingCase,
  items: Extract<LenderEvent, { type: 'application.questions' }>['data']['items'],
  creationKey: string,
): Promise<void> {
  const dueAt = new Date(deps.now().getTime() + deps.dueAfterMs);
  const context = { partnerId: financingCase.partnerId };
  for (const type of ['document', 'information'] as const) {
    const ofType: NewRequestItem[] = items
      .filter((item) => item.type === type)
      .map((item) => ({
        label: item.label?.trim() ?? '',
        category: type === 'document' ? (item.category ?? '') : '',
        question: type === 'information' ? (item.question?.trim() ?? '') : '',
        optional: item.optional,
        targetAudience: item.targetAudience,
        dueAt,
      }));
    if (ofType.length > 0) await deps.documents.createRequestItems(financingCase.id, type, ofType, context, `${creationKey}:${type}`);
  }
}

export interface LenderOperationsDependencies {
  store: CaseReads & CaseLocks;
  applications: ApplicationSource;
  lender: LenderAdapter;
}

/**
 * The approval team's verified answers to the lender's questions, sent for the case's latest
 * submission: refused while the lender has given no reference yet, a bad gateway when it fails.
 */
export async function sendLenderAttachments(
  deps: LenderOperationsDependencies,
  financingCaseId: string,
  items: LenderAttachments['items'],
  actor: Actor,
): Promise<{ reference: string }> {
  if (!(await deps.store.findCase(financingCaseId))) throw notFound('financing_case.not_found', `No case ${financingCaseId}.`);
  const latest = await deps.applications.latestSubmission(financingCaseId);
  if (!latest?.reference || !latest.lenderId)
    throw ruleViolation('lender.no_reference', 'The case has no lender reference yet; attachments can be sent once the lender accepted the application.');
  try {
    await deps.lender.sendAttachments(latest.lenderId, latest.reference, { applicationId: latest.applicationId, financingCaseId, items });
  } catch (error) {
    throw badGateway('lender.failed', 'The lender did not take the attachments; nothing was changed. Retry later.', error);
  }
  await deps.store.inCase(
    financingCaseId,
    (transaction) =>
      transaction.recordHistory('lender_attachments', {
        details: { reference: latest.reference, items: items.map((item) => ({ type: item.type, id: item.id })) },
      }),
    { actor },
  );
  return { reference: latest.reference };
}

/**
 * A new submission (new application id) of a case whose latest submission failed for good or for
 * now, which it supersedes. Refused while an attempt of that submission is on its way to the
 * lender (its status still reads failed from the attempt before): the lender would get the case
 * twice. The latest submission is locked, so the worker cannot claim its retry meanwhile.
 */
export async function resubmitToLender(deps: { store: CaseReads & CaseLocks }, financingCaseId: string, actor: Actor): Promise<void> {
  if (!(await deps.store.findCase(financingCaseId))) throw notFound('financing_case.not_found', `No case ${financingCaseId}.`);
  const outcome = await deps.store.inCase(
    financingCaseId,
    async (transaction) => {
      const latest = await transaction.lockLatestLenderSubmission();
      if (latest?.status !== 'failed') {
        throw ruleViolation(
          'lender.not_failed',
          `The case's latest lender submission is ${latest?.status ?? 'missing'}; only a failed one can be submitted again.`,
        );
      }
      if (latest.inFlight) {
        throw ruleViolation(
          'lender.not_failed',
          "An attempt of the case's latest lender submission is on its way to the lender; wait for its outcome before submitting again.",
        );
      }
      await transaction.queueLenderSubmission();
      await transaction.recordHistory('lender_resubmission', { details: { previousApplicationId: latest.applicationId } });
    },
    { actor },
  );
  if (!outcome) throw notFound('financing_case.not_found', `No case ${financingCaseId}.`);
}
