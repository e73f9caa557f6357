import type { ContractPlace, EnvelopeStatus } from '../domain/contract/contract-machine';
import type {
  ActorType,
  Address,
  AuthorizedPerson,
  Contract,
  Customer,
  EnvelopeRecipient,
  FinancingCase,
  FinancingResponse,
  HistoryEntry,
  LenderSubmissionStatus,
  Quote,
  QuoteFeedback,
  QuoteFeedbackAction,
  QuoteItem,
  SignatureEnvelope,
} from '../domain/shared/model';
import type { NewAuthorizedPerson, ProviderEnvelope } from '../domain/signing/ports';
import type { QuoteStatus } from '../domain/quote/quote-machine';

export interface CaseRow {
  id: string;
  partner_id: string;
  case_number: string;
  type: string;
  financing_request: boolean;
  rejection_reason: string | null;
  cart_id: string | null;
  quote_request_id: string | null;
  created_at: Date;
  updated_at: Date;
  last_event_at: Date | null;
  /** bigint: node-postgres reads it as a string. */
  clock_offset_ms: string | number;
}

/** A case row joined with its quote's id and status. */
export interface CaseWithQuoteRow extends CaseRow {
  quote_id: string;
  quote_status: string;
  quote_number: string;
}

export interface QuoteRow {
  id: string;
  financing_case_id: string;
  partner_id: string;
  quote_number: string;
  status: string;
  status_updated_at: Date;
  calculation_type: string;
  duration: number;
  customer: Customer;
  shipping_address: Address;
  distribution_hub: string | null;
  calculation_id: string | null;
  cart_id: string | null;
  quote_request_id: string | null;
  in_review_since: Date | null;
  reminder_count: number;
  last_reminder_at: Date | null;
  review_mailed_at: Date | null;
  lender_submission_status: string | null;
  last_lender_submission_at: Date | null;
  financing_number: string | null;
  processing_fee: string | null;
  special_agreements: string | null;
  rental_factor: string | null;
  residual_value: string | null;
  payment_interval: string | null;
  commission_percentage: number;
  total_value_cents: string | null;
  monthly_costs_cents: string | null;
  monthly_rate_all_in_cents: string | null;
  service_cost_cents: string | null;
  recurring_service_fee_cents: string | null;
  product_sector: string | null;
  financing_partner_id: string | null;
  custom_sla_file_name: string | null;
  contact_phone: string | null;
  contact_email: string | null;
  print_plan_terms: Record<string, unknown> | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface QuoteItemRow {
  id: number;
  quote_id: string;
  position: number;
  product_number: string;
  product_name: string | null;
  product_sku: string | null;
  quantity: number;
  price_per_item_cents: string;
  total_cents: string;
  category_id: number | null;
  category_slug: string | null;
  product_options: Record<string, string>;
}

export interface FeedbackRow {
  id: number;
  quote_id: string;
  text: string | null;
  action: string;
  created_at: Date;
}

export interface PersonRow {
  id: number;
  quote_id: string;
  first_name: string;
  last_name: string;
  email: string;
  confirmed_by_external: boolean;
  solo_signee_permitted: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface FinancingResponseRow {
  id: number;
  quote_id: string;
  decision: string;
  active: boolean;
  created_at: Date;
}

export interface ContractRow {
  id: string;
  financing_case_id: string;
  quote_id: string;
  partner_id: string;
  contract_number: string | null;
  status: string;
  status_updated_at: Date;
  created_at: Date;
  updated_at: Date;
}

export interface EnvelopeRow {
  id: string;
  contract_id: string;
  status: string;
  recipients: EnvelopeRecipient[];
  decline_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ProviderEnvelopeRow {
  envelope_id: string;
  financing_case_id: string;
  contract_id: string;
  provider_envelope_id: string | null;
  state: ProviderEnvelope['state'];
  persons: NewAuthorizedPerson[] | null;
  request_attempts: number;
  requested_until: Date | null;
}

const iso = (value: Date) => value.toISOString();
const isoOrNull = (value: Date | null) => (value ? value.toISOString() : null);
const centsOrNull = (value: string | null) => (value === null ? null : BigInt(value));

export function toCase(row: CaseWithQuoteRow): FinancingCase {
  return {
    id: row.id,
    caseNumber: row.case_number,
    partnerId: row.partner_id,
    type: 'financing',
    financingRequest: row.financing_request,
    rejectionReason: row.rejection_reason,
    cartId: row.cart_id,
    quoteRequestId: row.quote_request_id,
    quoteId: row.quote_id,
    status: row.quote_status as QuoteStatus,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    clockOffsetMs: Number(row.clock_offset_ms),
  };
}

/** The case as its quote stands now: what a case transaction and a creation answer. */
export function caseWithQuote(caseRow: CaseRow, quoteRow: QuoteRow): FinancingCase {
  return toCase({ ...caseRow, quote_id: quoteRow.id, quote_status: quoteRow.status, quote_number: quoteRow.quote_number });
}

export function toQuote(row: QuoteRow): Quote {
  return {
    id: row.id,
    financingCaseId: row.financing_case_id,
    partnerId: row.partner_id,
    quoteNumber: row.quote_number,
    status: row.status as QuoteStatus,
    statusUpdatedAt: iso(row.status_updated_at),
    calculationType: row.calculation_type,
    duration: row.duration,
    customer: row.customer,
    shippingAddress: row.shipping_address,
    distributionHub: row.distribution_hub,
    calculationId: row.calculation_id,
    cartId: row.cart_id,
    quoteRequestId: row.quote_request_id,
    inReviewSince: isoOrNull(row.in_review_since),
    reminderCount: row.reminder_count,
    lastReminderAt: isoOrNull(row.last_reminder_at),
    reviewMailedAt: isoOrNull(row.review_mailed_at),
    lenderSubmissionStatus: row.lender_submission_status as LenderSubmissionStatus | null,
    lastLenderSubmissionAt: isoOrNull(row.last_lender_submission_at),
    financingNumber: row.financing_number,
    processingFee: row.processing_fee,
    specialAgreements: row.special_agreements,
    rentalFactor: row.rental_factor,
    residualValue: row.residual_value,
    paymentInterval: row.payment_interval,
    commissionPercentage: row.commission_percentage,
    totalValueCents: centsOrNull(row.total_value_cents),
    monthlyCostsCents: centsOrNull(row.monthly_costs_cents),
    monthlyRateAllInCents: centsOrNull(row.monthly_rate_all_in_cents),
    serviceCostCents: centsOrNull(row.service_cost_cents),
    recurringServiceFeeCents: centsOrNull(row.recurring_service_fee_cents),
    productSector: row.product_sector,
    financingPartnerId: row.financing_partner_id,
    customSlaFileName: row.custom_sla_file_name,
    contactPhone: row.contact_phone,
    contactEmail: row.contact_email,
    printPlanTerms: row.print_plan_terms,
    deletedAt: isoOrNull(row.deleted_at),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export const toQuoteItem = (row: QuoteItemRow): QuoteItem => ({
  position: row.position,
  productNumber: row.product_number,
  productName: row.product_name,
  productSku: row.product_sku,
  quantity: row.quantity,
  pricePerItemCents: BigInt(row.price_per_item_cents),
  totalCents: BigInt(row.total_cents),
  categoryId: row.category_id,
  categorySlug: row.category_slug,
  productOptions: row.product_options,
});

export const toFeedback = (row: FeedbackRow): QuoteFeedback => ({
  id: row.id,
  quoteId: row.quote_id,
  text: row.text,
  action: row.action as QuoteFeedbackAction,
  createdAt: iso(row.created_at),
});

export const toPerson = (row: PersonRow): AuthorizedPerson => ({
  id: row.id,
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  confirmedByExternal: row.confirmed_by_external,
  soloSigneePermitted: row.solo_signee_permitted,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export const toFinancingResponse = (row: FinancingResponseRow): FinancingResponse => ({
  id: row.id,
  decision: row.decision as FinancingResponse['decision'],
  active: row.active,
  createdAt: iso(row.created_at),
});

export const toContract = (row: ContractRow): Contract => ({
  id: row.id,
  financingCaseId: row.financing_case_id,
  quoteId: row.quote_id,
  partnerId: row.partner_id,
  contractNumber: row.contract_number,
  status: row.status as ContractPlace,
  statusUpdatedAt: iso(row.status_updated_at),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export const toEnvelope = (row: EnvelopeRow): SignatureEnvelope => ({
  id: row.id,
  contractId: row.contract_id,
  status: row.status as EnvelopeStatus,
  recipients: row.recipients,
  declineReason: row.decline_reason,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export interface HistoryRow {
  id: string | number;
  financing_case_id: string;
  at: Date;
  actor_type: ActorType;
  actor_id: string | null;
  actor_name: string | null;
  action: string;
  resource_type: string | null;
  from_status: string | null;
  to_status: string | null;
  reason: string | null;
  details: Record<string, unknown> | null;
}

export function toHistoryEntry(row: HistoryRow): HistoryEntry {
  return {
    id: Number(row.id),
    financingCaseId: row.financing_case_id,
    at: row.at.toISOString(),
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    action: row.action,
    resourceType: row.resource_type,
    fromStatus: row.from_status,
    toStatus: row.to_status,
    reason: row.reason,
    details: row.details,
  };
}

export const toProviderEnvelope = (row: ProviderEnvelopeRow): ProviderEnvelope => ({
  envelopeId: row.envelope_id,
  contractId: row.contract_id,
  providerEnvelopeId: row.provider_envelope_id,
  state: row.state,
  persons: row.persons ?? [],
  requestAttempts: row.request_attempts,
  requestedUntil: row.requested_until,
});
