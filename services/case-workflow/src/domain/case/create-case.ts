import { invalidInput } from '@rental/problem';
import { FINANCING_TYPES, PAYMENT_INTERVALS } from '@rental/proto';
import { Address, Customer, QuoteItem, QuoteTermsInput, partnerActor } from '../shared/model';
import type { PartnerNames } from '../shared/ports';
import type { CaseCreation, CaseCreationWork, CaseSource, NewCase } from './ports';
import { CustomerChannelSettings, issueLinkAndMail } from '../customer/customer';

const QUOTE_NUMBER = /^[A-Za-z0-9._/-]{1,64}$/;

export interface CheckoutCaseInput {
  partnerId: string;
  cartId: string;
  items: QuoteItem[];
  customer: Customer;
  deliveryAddress: Address | null;
  terms: QuoteTermsInput;
  printPlanTerms: Record<string, unknown> | null;
  submitFinancing: boolean;
  quoteNumber: string | null;
}

export interface QuoteRequestCaseInput {
  partnerId: string;
  quoteRequestId: string;
  calculationId: string;
  customer: Customer;
  terms: QuoteTermsInput;
  contactPhone: string | null;
  contactEmail: string | null;
}

export interface CreatedCase {
  financingCaseId: string;
  quoteId: string;
  caseNumber: string;
  quoteNumber: string;
  created: boolean;
  /** The case's (its quote's) status right after the call. */
  status: string;
}

/** Without a delivery address the customer's own address is where the equipment goes. */
export function shippingAddressOf(customer: Customer, deliveryAddress: Address | null): Address {
  if (deliveryAddress) return deliveryAddress;
  const person = [customer.firstName, customer.lastName].filter(Boolean).join(' ');
  return {
    recipientName: person || customer.company,
    company: customer.company,
    street: customer.street,
    houseNumber: customer.houseNumber,
    zipCode: customer.zipCode,
    city: customer.city,
    country: customer.country,
  };
}

function checkCommon(partnerId: string, terms: QuoteTermsInput): void {
  if (!partnerId) throw invalidInput('case.partner_missing', 'The call carries no partner id.');
  if (!(FINANCING_TYPES as readonly string[]).includes(terms.calculationType)) {
    throw invalidInput('case.invalid_terms', `calculation_type must be one of ${FINANCING_TYPES.join(', ')}.`);
  }
  if (!Number.isInteger(terms.duration) || terms.duration < 1) throw invalidInput('case.invalid_terms', 'duration must be a positive number of months.');
  if (terms.paymentInterval !== null && !(PAYMENT_INTERVALS as readonly string[]).includes(terms.paymentInterval)) {
    throw invalidInput('case.invalid_terms', `payment_interval must be one of ${PAYMENT_INTERVALS.join(', ')}.`);
  }
}

async function createOnce(store: CaseCreation, newCase: NewCase, work: (creation: CaseCreationWork) => Promise<void>): Promise<CreatedCase> {
  const result = await store.createCase(newCase, work, { actor: partnerActor(newCase.partnerId) });
  return {
    financingCaseId: result.financingCase.id,
    quoteId: result.financingCase.quoteId,
    caseNumber: result.financingCase.caseNumber,
    quoteNumber: result.quoteNumber,
    created: result.created,
    status: result.financingCase.status,
  };
}

/** The customer channel of a checkout: the view-only link a submitFinancing checkout mails. */
export interface CheckoutCustomerChannel {
  settings: CustomerChannelSettings;
  partners: PartnerNames;
}

/**
 * The case of a checked-out cart, its quote frozen with the cart's items and the priced terms.
 * With submitFinancing the customer's acceptance and the request for finance review follow in
 * the same transaction, the quote is queued for the lender, and the checkout customer (when an
 * e-mail was given) gets a view-only link; without, it stays in_progress with no financing
 * request. A repeat for the same cart returns the first case.
 */
export async function createCaseFromCheckout(store: CaseCreation, input: CheckoutCaseInput, channel?: CheckoutCustomerChannel): Promise<CreatedCase> {
  checkCommon(input.partnerId, input.terms);
  if (!input.cartId) throw invalidInput('case.cart_missing', 'cart_id is required.');
  if (input.quoteNumber !== null && !QUOTE_NUMBER.test(input.quoteNumber))
    throw invalidInput('case.invalid_quote_number', 'quote_number must have 1 to 64 letters, digits or . _ / -.');
  const source: CaseSource = { cartId: input.cartId };
  const email = input.submitFinancing ? input.customer.email : null;
  const partnerName = channel && email ? await channel.partners.nameOf(input.partnerId) : null;
  return createOnce(
    store,
    {
      partnerId: input.partnerId,
      source,
      financingRequest: input.submitFinancing,
      quoteNumber: input.quoteNumber,
      customer: input.customer,
      shippingAddress: shippingAddressOf(input.customer, input.deliveryAddress),
      terms: input.terms,
      items: input.items,
      calculationId: null,
      contactPhone: null,
      contactEmail: null,
      printPlanTerms: input.printPlanTerms,
    },
    async (transaction) => {
      if (!input.submitFinancing) return;
      await transaction.moveQuotes(['accept_by_customer', 'request_finance_review']);
      await transaction.queueLenderSubmission();
      if (channel && email) await issueLinkAndMail(channel.settings, transaction, { email, viewOnly: true, partnerName });
    },
  );
}

/** The case of a quote request: the quote in_progress, no financing request yet. */
export function createCaseFromQuoteRequest(store: CaseCreation, input: QuoteRequestCaseInput): Promise<CreatedCase> {
  checkCommon(input.partnerId, input.terms);
  if (!input.quoteRequestId) throw invalidInput('case.quote_request_missing', 'quote_request_id is required.');
  return createOnce(
    store,
    {
      partnerId: input.partnerId,
      source: { quoteRequestId: input.quoteRequestId },
      financingRequest: false,
      quoteNumber: null,
      customer: input.customer,
      shippingAddress: shippingAddressOf(input.customer, null),
      terms: input.terms,
      items: [],
      calculationId: input.calculationId || null,
      contactPhone: input.contactPhone,
      contactEmail: input.contactEmail,
      printPlanTerms: null,
    },
    async () => undefined,
  );
}
