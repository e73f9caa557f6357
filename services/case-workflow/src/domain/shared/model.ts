import type { Cents } from '@rental/money';
import type { ListedRequestItem } from '@rental/proto';
import type { ContractPlace, EnvelopeStatus } from '../contract/contract-machine';
import type { QuoteStatus } from '../quote/quote-machine';

export interface Customer {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  street: string | null;
  houseNumber: string | null;
  zipCode: string | null;
  city: string | null;
  country: string | null;
  phone: string | null;
  company: string | null;
  vatId: string | null;
  customerType: string | null;
}

export interface Address {
  recipientName: string | null;
  company: string | null;
  street: string | null;
  houseNumber: string | null;
  zipCode: string | null;
  city: string | null;
  country: string | null;
}

export interface FinancingCase {
  id: string;
  caseNumber: string;
  partnerId: string;
  type: 'financing';
  financingRequest: boolean;
  rejectionReason: string | null;
  cartId: string | null;
  quoteRequestId: string | null;
  quoteId: string;
  /** The quote's status: the case has no status of its own. */
  status: QuoteStatus;
  createdAt: string;
  updatedAt: string;
  /** How far the sandbox clock moved this case forward: its clock is the wall clock plus this (0: never moved). */
  clockOffsetMs: number;
}

export type LenderSubmissionStatus = 'pending' | 'submitted' | 'failed';

export interface QuoteTermsInput {
  calculationType: string;
  duration: number;
  commissionPercentage: number;
  paymentInterval: string | null;
  rentalFactor: string | null;
  residualValue: string | null;
  totalValueCents: Cents | null;
  monthlyCostsCents: Cents | null;
  monthlyRateAllInCents: Cents | null;
  serviceCostCents: Cents | null;
  recurringServiceFeeCents: Cents | null;
  productSector: string | null;
  financingPartnerId: string | null;
  distributionHub: string | null;
  customSlaFileName: string | null;
}

/**
 * The rate the customer is shown (customer view, page, offer and contract PDFs): what the customer
 * pays per month, rent's service cost and the monthly surcharge included, never the bare rate
 * (monthlyCosts) the partner's conditions are built from.
 */
export const customerMonthlyRateCents = (quote: Pick<QuoteTermsInput, 'monthlyRateAllInCents'>): Cents | null => quote.monthlyRateAllInCents;

export interface Quote extends QuoteTermsInput {
  id: string;
  financingCaseId: string;
  partnerId: string;
  quoteNumber: string;
  status: QuoteStatus;
  statusUpdatedAt: string;
  customer: Customer;
  shippingAddress: Address;
  calculationId: string | null;
  cartId: string | null;
  quoteRequestId: string | null;
  inReviewSince: string | null;
  reminderCount: number;
  lastReminderAt: string | null;
  /** When the customer was last mailed about the review (the link or a reminder). */
  reviewMailedAt: string | null;
  lenderSubmissionStatus: LenderSubmissionStatus | null;
  lastLenderSubmissionAt: string | null;
  financingNumber: string | null;
  processingFee: string | null;
  specialAgreements: string | null;
  contactPhone: string | null;
  contactEmail: string | null;
  printPlanTerms: Record<string, unknown> | null;
  deletedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface QuoteItem {
  position: number;
  productNumber: string;
  productName: string | null;
  productSku: string | null;
  quantity: number;
  pricePerItemCents: Cents;
  totalCents: Cents;
  categoryId: number | null;
  categorySlug: string | null;
  productOptions: Record<string, string>;
}

export type QuoteFeedbackAction = 'request_changes' | 'reject_by_customer';

export interface QuoteFeedback {
  id: number;
  quoteId: string;
  text: string | null;
  action: QuoteFeedbackAction;
  createdAt: string;
}

export interface AuthorizedPerson {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  confirmedByExternal: boolean;
  soloSigneePermitted: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface FinancingResponse {
  id: number;
  decision: 'review' | 'accepted';
  active: boolean;
  createdAt: string;
}

/** A quote with everything its read shape shows. */
export interface QuoteDetails {
  quote: Quote;
  items: QuoteItem[];
  feedbacks: QuoteFeedback[];
  authorizedPersons: AuthorizedPerson[];
  financingResponses: FinancingResponse[];
  contractId: string | null;
}

export interface Contract {
  id: string;
  financingCaseId: string;
  quoteId: string;
  partnerId: string;
  contractNumber: string | null;
  status: ContractPlace;
  statusUpdatedAt: string;
  createdAt: string;
  updatedAt: string;
}

export interface EnvelopeRecipient {
  name: string;
  email: string | null;
  role: 'customer' | 'signer';
}

export interface SignatureEnvelope {
  id: string;
  contractId: string;
  status: EnvelopeStatus;
  recipients: EnvelopeRecipient[];
  declineReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ContractDetails {
  contract: Contract;
  envelope: SignatureEnvelope | null;
}

/** A requested item of the case as the documents service lists it. */
export type RequestedItem = ListedRequestItem;

/** Who made a change of a case, as the history shows it. */
export type ActorType = 'partner' | 'customer' | 'lender' | 'signing' | 'operator' | 'system';

export interface Actor {
  type: ActorType;
  id: string | null;
  name: string | null;
}

/** Who makes the changes of one case transaction, and why (shown in the case's history). */
export interface AuditContext {
  actor: Actor;
  reason?: string | null;
}

/** One entry of a case's history: a status move, or another change such as a note or a review. */
export interface HistoryEntry {
  id: number;
  financingCaseId: string;
  at: string;
  actor: Actor;
  action: string;
  resourceType: string | null;
  fromStatus: string | null;
  toStatus: string | null;
  reason: string | null;
  details: Record<string, unknown> | null;
}

export const partnerActor = (partnerId: string): Actor => ({ type: 'partner', id: partnerId, name: null });
export const SYSTEM_ACTOR: Actor = { type: 'system', id: null, name: null };
