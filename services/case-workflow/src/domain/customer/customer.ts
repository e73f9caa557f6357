import { z } from 'zod';
import { forbidden, gone, notFound, ruleViolation, tooLongMessage, validationFailed } from '@rental/problem';
import { caseNotFound, ownCase, requireApiUser } from '../shared/access';
import { hashCustomerToken, looksLikeCustomerToken } from './customer-token';
import { FinancingCase, Quote, QuoteDetails, RequestedItem, partnerActor } from '../shared/model';
import type { DocumentsPort, MailRequest, PartnerNames } from '../shared/ports';
import type { CaseLocks, CaseReads, CaseRecord, ReminderCase } from '../case/ports';
import type { CustomerLink, CustomerLinkReads, CustomerLinkWork } from './ports';
import type { LenderWork } from '../lender/ports';
import type { QuoteWork } from '../quote/ports';
import type { QuoteMove, QuoteStatus } from '../quote/quote-machine';

/** What the customer's side needs to know of the deployment. */
export interface CustomerChannelSettings {
  /** Builds customerUrl: {publicBaseUrl}/c/{token}. */
  publicBaseUrl: string;
  /** CUSTOMER_LINK_TTL in milliseconds. */
  linkTtlMs: number;
  now(): Date;
}

export interface CustomerDependencies {
  store: CaseReads & CaseLocks & CustomerLinkReads;
  documents: DocumentsPort;
  partners: PartnerNames;
  customer: CustomerChannelSettings;
}

const CUSTOMER_ACTOR = { type: 'customer', id: null, name: null } as const;
const customerAudit = { actor: { ...CUSTOMER_ACTOR } };

export type CustomerAction = 'accept' | 'request_changes' | 'reject';

export const sendToCustomerBody = z.object({
  email: z
    .email({ message: 'This value is not a valid e-mail address.' })
    .max(254)
    .optional()
    .describe("Where the link goes; default: the checkout customer's e-mail"),
});

export const customerFeedbackBody = z
  .object({
    action: z.enum(['request_changes', 'reject_by_customer']),
    text: z.string().max(2000).optional().describe('Required for request_changes'),
  })
  .meta({ id: 'CustomerFeedbackRequest' });

/** The moves that bring a quote (back) into review when the partner sends it; in_review itself only gets a new link. */
const INTO_REVIEW: Partial<Record<QuoteStatus, QuoteMove | null>> = {
  in_progress: 'finalize',
  change_requested: 'apply_changes',
  review_expired: 'reactivate',
  in_review: null,
};

export interface SentToCustomer {
  financingCaseId: string;
  status: QuoteStatus;
  customerUrl: string;
  expiresAt: string;
}

const customerUrlOf = (settings: CustomerChannelSettings, token: string) => `${settings.publicBaseUrl.replace(/\/+$/, '')}/c/${token}`;

const FOOTER = '\n\nThis message was sent automatically by the Partner Rental API on behalf of your dealer.';

function greeting(quote: Quote): string {
  const name = [quote.customer.firstName, quote.customer.lastName].filter(Boolean).join(' ');
  return name ? `Hello ${name},` : 'Hello,';
}

const untilLine = (expiresAt: string) => `The link works until ${expiresAt.slice(0, 10)}.`;

function linkMail(quote: Quote, partnerName: string | null, url: string, expiresAt: string, viewOnly: boolean): Omit<MailRequest, 'recipient'> {
  const from = partnerName ?? 'Your dealer';
  if (viewOnly) {
    return {
      kind: 'customer_link',
      subject: `Your financing request ${quote.quoteNumber}`,
      text: `${greeting(quote)}\n\n${from} has sent your financing request ${quote.quoteNumber} to the lender. You can follow its status and answer open requests here:\n${url}\n${untilLine(expiresAt)}${FOOTER}`,
    };
  }
  return {
    kind: 'customer_link',
    subject: `Your offer ${quote.quoteNumber} from ${from}`,
    text: `${greeting(quote)}\n\n${from} has prepared the offer ${quote.quoteNumber} for you. Read it, accept it, or tell us what should change:\n${url}\n${untilLine(expiresAt)}${FOOTER}`,
  };
}

/**
 * POST /api/financing_cases/{id}/send-to-customer: the quote moves into review (finalize,
 * apply_changes or reactivate; in in_review it stays), every earlier link stops working and the
 * customer gets a new one by mail.
 */
export async function sendToCustomer(
  deps: CustomerDependencies,
  id: string,
  body: z.infer<typeof sendToCustomerBody>,
  partner: { id: string; roles: readonly string[] },
): Promise<SentToCustomer> {
  requireApiUser(partner.roles);
  const partnerName = await deps.partners.nameOf(partner.id);
  const outcome = await deps.store.inCase(
    id,
    async (transaction) => {
      ownCase(transaction.financingCase, partner.id);
      const email = body.email ?? transaction.quote.customer.email;
      if (!email)
        throw validationFailed([
          { propertyPath: 'email', code: 'validation.required', message: 'The checkout gave no customer e-mail; name the address the link goes to.' },
        ]);
      const from = transaction.quote.status;
      const move = INTO_REVIEW[from];
      if (move === undefined) {
        const message = `The quote is ${from}; it can be sent to the customer only from in_progress, change_requested, review_expired or in_review.`;
        throw ruleViolation('customer.send_not_allowed', message, [{ propertyPath: '', code: 'customer.send_not_allowed', message }]);
      }
      if (move) await transaction.moveQuote(move);
      const link = await issueLinkAndMail(deps.customer, transaction, { email, viewOnly: false, partnerName });
      return { financingCaseId: transaction.financingCase.id, status: transaction.quote.status, ...link };
    },
    { actor: partnerActor(partner.id) },
  );
  if (!outcome) throw caseNotFound(id);
  return outcome.result;
}

/** A new link (replacing the earlier ones) and its mail, in the case's transaction. */
export async function issueLinkAndMail(
  settings: CustomerChannelSettings,
  transaction: Pick<CaseRecord, 'quote' | 'now' | 'requestMail'> & Pick<CustomerLinkWork, 'issueCustomerLink' | 'markReviewMailed'>,
  input: { email: string; viewOnly: boolean; partnerName: string | null },
): Promise<{ customerUrl: string; expiresAt: string }> {
  const link = await transaction.issueCustomerLink({
    email: input.email,
    viewOnly: input.viewOnly,
    replace: true,
    expiresAt: new Date(transaction.now().getTime() + settings.linkTtlMs),
  });
  const customerUrl = customerUrlOf(settings, link.token);
  await transaction.requestMail({
    recipient: { email: input.email },
    ...linkMail(transaction.quote, input.partnerName, customerUrl, link.expiresAt, input.viewOnly),
  });
  await transaction.markReviewMailed();
  return { customerUrl, expiresAt: link.expiresAt };
}

/** The reminder to the customer, with a copy of the current link (the earlier one keeps working). */
export async function remindCustomer(
  settings: CustomerChannelSettings,
  transaction: ReminderCase,
  input: { email: string; expiresAt: string; partnerName: string | null },
): Promise<void> {
  const link = await transaction.issueCustomerLink({ email: input.email, viewOnly: false, replace: false, expiresAt: new Date(input.expiresAt) });
  const url = customerUrlOf(settings, link.token);
  const quote = transaction.quote;
  const from = input.partnerName ?? 'Your dealer';
  await transaction.recordReminder();
  // A reminder changes no status, so it is recorded on its own (action remind, by the clock's actor).
  await transaction.recordHistory('remind');
  await transaction.requestMail({
    kind: 'review_reminder',
    recipient: { email: input.email },
    subject: `Reminder: your offer ${quote.quoteNumber} from ${from}`,
    text: `${greeting(quote)}\n\nthe offer ${quote.quoteNumber} from ${from} is still waiting for your answer:\n${url}\n${untilLine(link.expiresAt)}${FOOTER}`,
  });
}

/** What a valid link opens. */
export interface OpenedLink {
  link: CustomerLink;
  financingCase: FinancingCase;
}

const linkNotFound = () => notFound('customer.link_not_found', 'No offer exists at this link.');
const linkExpired = () =>
  gone('customer.link_expired', 'This link no longer works: it expired, a newer link replaced it, or the case was canceled. Ask your dealer for a new link.');

/** 404 for a token that never was, 410 for one that stopped working. */
async function openLink(deps: Pick<CustomerDependencies, 'store' | 'customer'>, token: string): Promise<OpenedLink> {
  if (!looksLikeCustomerToken(token)) throw linkNotFound();
  const link = await deps.store.findCustomerLink(hashCustomerToken(token));
  if (!link) throw linkNotFound();
  // The link's end is a time on its case's clock (moved forward by the sandbox clock, if ever).
  if (link.invalidatedAt !== null || Date.parse(link.expiresAt) <= deps.customer.now().getTime() + link.clockOffsetMs) throw linkExpired();
  const financingCase = await deps.store.findCase(link.financingCaseId);
  if (!financingCase) throw linkNotFound();
  return { link, financingCase };
}

export interface CustomerView {
  details: QuoteDetails;
  partnerName: string | null;
  expiresAt: string;
  viewOnly: boolean;
  actions: CustomerAction[];
  requestedItems: RequestedItem[];
}

export function actionsOf(status: QuoteStatus, viewOnly: boolean): CustomerAction[] {
  return !viewOnly && status === 'in_review' ? ['accept', 'request_changes', 'reject'] : [];
}

async function viewOf(deps: CustomerDependencies, opened: OpenedLink): Promise<CustomerView> {
  const { financingCase, link } = opened;
  const context = { partnerId: financingCase.partnerId };
  const [details, partnerName, requestedItems] = await Promise.all([
    deps.store.findQuoteDetails(financingCase.quoteId),
    deps.partners.nameOf(financingCase.partnerId),
    deps.documents.listCustomerRequestItems(financingCase.id, context),
  ]);
  if (!details) throw linkNotFound();
  return { details, partnerName, expiresAt: link.expiresAt, viewOnly: link.viewOnly, actions: actionsOf(details.quote.status, link.viewOnly), requestedItems };
}

/** GET /customer/v1/quotes/{token} */
export async function readCustomerView(deps: CustomerDependencies, token: string): Promise<CustomerView> {
  return viewOf(deps, await openLink(deps, token));
}

/** What the customer's answer does to the locked case: the quote's moves, and the lender submission an acceptance queues. */
type CustomerAnswerWork = CaseRecord & QuoteWork & LenderWork;

/** A change the customer makes: only with a link that allows actions, only while the quote is in review. */
async function customerChange(
  deps: CustomerDependencies,
  token: string,
  change: (transaction: CustomerAnswerWork) => Promise<void>,
  reason: string | null = null,
): Promise<CustomerView> {
  const opened = await openLink(deps, token);
  if (opened.link.viewOnly) throw forbidden('customer.view_only', 'This link shows the status of your financing request; it allows no changes.');
  const outcome = await deps.store.inCase(
    opened.financingCase.id,
    async (transaction) => {
      const status = transaction.quote.status;
      if (status !== 'in_review') {
        const message = `The offer is ${status}; it can be answered only while it is in_review.`;
        throw ruleViolation('customer.action_not_allowed', message, [{ propertyPath: '', code: 'customer.action_not_allowed', message }]);
      }
      await change(transaction);
    },
    { ...customerAudit, reason },
  );
  if (!outcome) throw linkNotFound();
  return viewOf(deps, { ...opened, financingCase: (await deps.store.findCase(opened.financingCase.id)) ?? opened.financingCase });
}

/** POST …/accept: accept_by_customer, then request_finance_review (two events), and the lender submission is queued. */
export function acceptOffer(deps: CustomerDependencies, token: string): Promise<CustomerView> {
  return customerChange(deps, token, async (transaction) => {
    await transaction.moveQuotes(['accept_by_customer', 'request_finance_review']);
    await transaction.markFinancingRequest();
    await transaction.queueLenderSubmission();
  });
}

/** POST …/feedback: request_changes (text required) or reject_by_customer, with the feedback the partner sees on the quote. */
export function giveFeedback(deps: CustomerDependencies, token: string, body: z.infer<typeof customerFeedbackBody>): Promise<CustomerView> {
  const text = body.text?.trim() ? body.text.trim() : null;
  if (body.action === 'request_changes' && !text) {
    throw validationFailed([{ propertyPath: 'text', code: 'validation.required', message: 'Tell the dealer what should change.' }]);
  }
  // The customer's words are the reason of the move in the case's history, as an operator's are.
  return customerChange(
    deps,
    token,
    async (transaction) => {
      await transaction.moveQuote(body.action);
      await transaction.addQuoteFeedback(body.action, text);
    },
    text,
  );
}

export const customerAnswerBody = z
  .object({
    response: z.string().trim().min(1, 'Write an answer to the question.').max(10_000, tooLongMessage(10_000)).describe('The answer, 1 to 10,000 characters'),
  })
  .meta({ id: 'CustomerInformationAnswer' });

export type CustomerAnswer = z.infer<typeof customerAnswerBody>;

/**
 * POST …/information/{id}/respond: the customer answers a question the case asks of the customer
 * (documents keeps it); any valid link may answer, a view-only one too, whatever the quote's status.
 */
export async function answerQuestion(deps: CustomerDependencies, token: string, informationId: number, body: CustomerAnswer): Promise<CustomerView> {
  const opened = await openLink(deps, token);
  const { financingCase } = opened;
  await deps.documents.answerCustomerInformation(financingCase.id, informationId, body.response, { partnerId: financingCase.partnerId });
  return viewOf(deps, opened);
}

/** Which case a token opens, for documents (customer uploads). */
export async function resolveLink(
  deps: Pick<CustomerDependencies, 'store' | 'customer'>,
  token: string,
): Promise<{ state: 'valid' | 'expired' | 'unknown'; opened?: OpenedLink }> {
  try {
    return { state: 'valid', opened: await openLink(deps, token) };
  } catch (error) {
    if (error instanceof Error && 'kind' in error) {
      if (error.kind === 'gone') return { state: 'expired' };
      if (error.kind === 'not_found') return { state: 'unknown' };
    }
    throw error;
  }
}

/**
 * The delivery recipient as the specification's deliveryAddress rule says: a checkout's delivery
 * address exactly as given (the lessee company is not prepended); without one, the customer's
 * own address with the company first.
 */
export function deliveryRecipientLines(quote: Quote): string[] {
  const address = quote.shippingAddress;
  const person = [quote.customer.firstName, quote.customer.lastName].filter(Boolean).join(' ') || quote.customer.company;
  const isCustomerAddress =
    address.recipientName === person &&
    address.company === quote.customer.company &&
    address.street === quote.customer.street &&
    address.zipCode === quote.customer.zipCode &&
    address.city === quote.customer.city;
  const names = isCustomerAddress
    ? [quote.customer.company, address.recipientName !== quote.customer.company ? address.recipientName : null]
    : [address.recipientName, address.company];
  const street = [address.street, address.houseNumber].filter(Boolean).join(' ');
  const city = [address.zipCode, address.city].filter(Boolean).join(' ');
  return [...names, street, city, address.country].filter((line): line is string => Boolean(line));
}
