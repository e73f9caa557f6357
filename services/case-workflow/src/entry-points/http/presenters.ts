import { amountOfCents, decimalOfCents } from '@rental/money';
import type { Address, Contract, Customer, ContractDetails, QuoteDetails, RequestedItem } from '../../domain/shared/model';
import type { CaseJsonView, CaseView } from '../../domain/case/reads';

export const casePath = (id: string) => `/api/financing_cases/${id}`;
export const quotePath = (id: string) => `/api/quotes/${id}`;
export const contractPath = (id: string) => `/api/contracts/${id}`;
const partnerPath = (id: string) => `/api/partners/${id}`;

function presentItem(item: RequestedItem) {
  return {
    id: item.id,
    type: item.type,
    label: item.label,
    status: item.status,
    category: item.category,
    templateDownloadUrl: item.templateDownloadUrl,
    ...(item.callbackRequestId !== null ? { callbackRequestId: item.callbackRequestId } : {}),
    callbackStatus: item.callbackStatus,
    requestedAt: item.requestedAt,
    dueAt: item.dueAt,
    optional: item.optional,
  };
}

export function presentCase({ financingCase, requestedItems }: CaseView) {
  const items = requestedItems.map(presentItem);
  return {
    '@id': casePath(financingCase.id),
    '@type': 'FinancingCase' as const,
    id: financingCase.id,
    caseNumber: financingCase.caseNumber,
    type: financingCase.type,
    status: financingCase.status,
    rejectionReason: financingCase.rejectionReason,
    financingRequest: financingCase.financingRequest,
    partner: partnerPath(financingCase.partnerId),
    quotes: [quotePath(financingCase.quoteId)],
    requestedDocuments: items.filter((item) => item.type === 'document'),
    requestedFillAndReturns: items.filter((item) => item.type === 'fill_and_return'),
    requestedInformation: items.filter((item) => item.type === 'information'),
    requestedItems: items,
    createdAt: financingCase.createdAt,
    updatedAt: financingCase.updatedAt,
  };
}

/** The item lists of a case without requested items: documents answers only cases that have some. */
const NO_REQUESTED_ITEMS = JSON.stringify({ requestedDocuments: [], requestedFillAndReturns: [], requestedInformation: [], requestedItems: [] });

/**
 * The case list's body from the JSON the two databases built for it: the members of each case's
 * object of item lists spliced between its head and tail, where presentCase puts them. The
 * fragments are joined as text (each one JSON object, so its braces are dropped); nothing is parsed.
 */
export function presentCaseListJson(views: CaseJsonView[]): string {
  const members = (object: string) => object.slice(1, -1);
  const cases = views.map(
    ({ financingCase: { head, tail }, requestedItems }) => `{${members(head)},${members(requestedItems ?? NO_REQUESTED_ITEMS)},${members(tail)}}`,
  );
  return `[${cases.join(',')}]`;
}

const presentCustomer = (customer: Customer) => ({
  firstName: customer.firstName,
  lastName: customer.lastName,
  email: customer.email,
  street: customer.street,
  houseNumber: customer.houseNumber,
  zipCode: customer.zipCode,
  city: customer.city,
  country: customer.country,
  phone: customer.phone,
  company: customer.company,
  vatId: customer.vatId,
  customerType: customer.customerType,
});

const presentAddress = (address: Address) => ({
  recipientName: address.recipientName,
  company: address.company,
  street: address.street,
  houseNumber: address.houseNumber,
  zipCode: address.zipCode,
  city: address.city,
  country: address.country,
});

export function presentQuote(details: QuoteDetails) {
  const { quote } = details;
  const responses = details.financingResponses.map((response) => ({
    id: response.id,
    decision: response.decision,
    active: response.active,
    createdAt: response.createdAt,
  }));
  return {
    '@id': quotePath(quote.id),
    '@type': 'Quote' as const,
    id: quote.id,
    quoteNumber: quote.quoteNumber,
    calculationType: quote.calculationType,
    duration: quote.duration,
    customer: presentCustomer(quote.customer),
    partner: { '@id': partnerPath(quote.partnerId), '@type': 'Partner' as const, id: quote.partnerId },
    status: quote.status,
    createdAt: quote.createdAt,
    updatedAt: quote.updatedAt,
    statusUpdatedAt: quote.statusUpdatedAt,
    distributionHub: quote.distributionHub,
    shippingAddress: presentAddress(quote.shippingAddress),
    effectiveShippingAddress: presentAddress(quote.shippingAddress),
    calculation: quote.calculationId ? `/api/calculations/${quote.calculationId}` : null,
    items: details.items.map((item) => ({
      position: item.position,
      quantity: item.quantity,
      pricePerItem: amountOfCents(item.pricePerItemCents),
      total: amountOfCents(item.totalCents),
      productNumber: item.productNumber,
      productName: item.productName,
      productSku: item.productSku,
      categorySlug: item.categorySlug,
    })),
    inReviewSince: quote.inReviewSince,
    inReview: quote.status === 'in_review',
    hasReceivedReminder: quote.reminderCount > 0,
    receivedReminder: quote.reminderCount > 0,
    reminderCount: quote.reminderCount,
    lastReminderAt: quote.lastReminderAt,
    lenderSubmissionStatus: quote.lenderSubmissionStatus,
    lastLenderSubmissionAt: quote.lastLenderSubmissionAt,
    contract: details.contractId ? contractPath(details.contractId) : null,
    cart: quote.cartId ? `/api/carts/${quote.cartId}` : null,
    financingResponses: responses,
    activeFinancingResponses: responses.filter((response) => response.active),
    apiCall: true,
    financeRejectedOverride: false,
    authorizedPersons: details.authorizedPersons,
    quoteFeedbacks: details.feedbacks.map((feedback) => ({
      id: feedback.id,
      quote: quotePath(feedback.quoteId),
      text: feedback.text,
      action: feedback.action,
      createdAt: feedback.createdAt,
    })),
    quoteRequest: quote.quoteRequestId ? `/api/quote_requests/${quote.quoteRequestId}` : null,
    financingNumber: quote.financingNumber,
    financingCaseId: quote.financingCaseId,
    processingFee: quote.processingFee,
    recurringService: decimalOfCents(quote.recurringServiceFeeCents),
    specialAgreements: quote.specialAgreements,
    rentalFactor: quote.rentalFactor,
    residualValue: quote.residualValue,
    paymentInterval: quote.paymentInterval,
    commissionPercentage: quote.commissionPercentage,
    deletedAt: quote.deletedAt,
    deleted: quote.deletedAt !== null,
    totalValue: amountOfCents(quote.totalValueCents),
    monthlyCosts: amountOfCents(quote.monthlyCostsCents),
    monthlyRateAllIn: amountOfCents(quote.monthlyRateAllInCents),
    selectedOffer: { calculationType: quote.calculationType, duration: quote.duration, rate: amountOfCents(quote.monthlyCostsCents) },
    productSector: quote.productSector,
    contactPhone: quote.contactPhone,
    contactEmail: quote.contactEmail,
  };
}

export function presentContract({ contract, envelope }: ContractDetails) {
  return {
    '@id': contractPath(contract.id),
    '@type': 'Contract' as const,
    id: contract.id,
    contractNumber: contract.contractNumber,
    status: contract.status,
    financingCaseId: contract.financingCaseId,
    quote: quotePath(contract.quoteId),
    signatureEnvelope: envelope
      ? {
          id: envelope.id,
          status: envelope.status,
          recipients: envelope.recipients.map((recipient) => ({ name: recipient.name, email: recipient.email, role: recipient.role })),
        }
      : null,
    createdAt: contract.createdAt,
    updatedAt: contract.updatedAt,
  };
}

export const presentContractNumber = (contract: Contract) => ({ id: contract.id, contractNumber: contract.contractNumber as string });
