import { DomainError, ErrorKind, notFound, validationFailed } from '@rental/problem';
import { StatusChange, StatusChangedEvent, statusChangedEventOf } from '@rental/proto';
import type { CallContext, CaseWorkflowPort, PricingPort, QuoteRequestCaseRequest, QuoteRequestStore, StoredCalculation, StoredOffer } from './ports';
import { QUOTE_REQUEST_TRANSITIONS } from './model/quote-request';
import type { QuoteRequestInput, QuoteRequestTransition, CaseStatusChange, QuoteRequest } from './model/quote-request';

export const CALCULATION_IRI = /^\/api\/calculations\/([0-9A-HJKMNP-TV-Z]{26})$/;

/** One move of a quote request, a status change of its case whose statuses follow from the transition. */
export type QuoteRequestMove = Omit<StatusChange, 'resourceType' | 'fromStatus' | 'toStatus' | 'transition'> & { transition: QuoteRequestTransition };

export function quoteRequestStatusChanged(move: QuoteRequestMove): StatusChangedEvent {
  const { from, to } = QUOTE_REQUEST_TRANSITIONS[move.transition];
  return statusChangedEventOf({ ...move, resourceType: 'quote_request', fromStatus: from, toStatus: to });
}

function offerOf(calculation: StoredCalculation, input: QuoteRequestInput): StoredOffer {
  const hasDuration = input.duration !== undefined && input.duration !== null;
  const hasType = input.calculationType !== undefined && input.calculationType !== null;
  if (hasDuration !== hasType) {
    const missing = hasDuration ? 'calculationType' : 'duration';
    throw validationFailed([{ propertyPath: missing, code: 'quote_request.pair_incomplete', message: 'duration and calculationType are passed together.' }]);
  }
  if (!hasDuration) {
    if (calculation.offers.length === 1) return calculation.offers[0] as StoredOffer;
    throw validationFailed([
      {
        propertyPath: 'duration',
        code: 'quote_request.offer_not_selected',
        message: `The calculation has ${calculation.offers.length} offers; choose one with duration and calculationType.`,
      },
    ]);
  }
  const offer = calculation.offers.find((candidate) => candidate.duration === input.duration && candidate.calculationType === input.calculationType);
  if (!offer) {
    throw validationFailed([
      {
        propertyPath: 'duration',
        code: 'quote_request.offer_not_found',
        message: `The calculation has no ${input.calculationType} offer for ${input.duration} months.`,
      },
    ]);
  }
  return offer;
}

/**
 * After this long a quote request still new counts as an interrupted filing (the answer of
 * case-workflow lost, or the process gone before it linked the case): well past the call's deadline.
 */
export const QUOTE_REQUEST_INTERRUPTED_AFTER_MS = 30_000;

/** case-workflow answered and created no case: kinds of a refusal, not of an unknown outcome (down, timed out, failed). */
const REFUSALS: readonly ErrorKind[] = ['invalid_input', 'forbidden', 'not_found', 'conflict', 'rule_violation'];
const isRefusal = (error: unknown) => error instanceof DomainError && REFUSALS.includes(error.kind);

/**
 * Files a quote request for an end customer from a stored calculation and creates its quote. No
 * transaction is open while case-workflow is asked: the quote request is filed (new) with the
 * request for its case first, then case-workflow creates the case (once per quote request
 * however often it is asked), then the quote request is linked to it.
 */
export async function fileQuoteRequest(
  input: QuoteRequestInput,
  deps: { store: QuoteRequestStore; pricing: PricingPort; caseWorkflow: CaseWorkflowPort },
  context: CallContext,
): Promise<QuoteRequest> {
  if (input.acknowledgedPrivacy !== true) {
    throw validationFailed([
      { propertyPath: 'acknowledgedPrivacy', code: 'quote_request.privacy_not_acknowledged', message: 'The privacy notice must be acknowledged (true).' },
    ]);
  }
  const calculationId = CALCULATION_IRI.exec(input.calculation)?.[1];
  const calculation = calculationId ? await deps.pricing.findCalculation(calculationId, context) : undefined;
  if (!calculation || !calculationId) {
    throw validationFailed([
      { propertyPath: 'calculation', code: 'quote_request.unknown_calculation', message: 'This is not the IRI of a calculation of this partner.' },
    ]);
  }
  const offer = offerOf(calculation, input);
  const contacts = await deps.pricing.financingPartnerOf(context);
  const caseRequest: QuoteRequestCaseRequest = {
    calculationId,
    customer: {
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      street: input.street,
      houseNumber: input.houseNumber ?? '',
      zipCode: input.postalCode,
      city: input.city,
      country: input.country,
      phone: input.phone ?? '',
      company: input.company ?? input.name ?? '',
      customerType: input.customerType,
    },
    terms: {
      financingType: offer.calculationType,
      duration: offer.duration,
      commission: offer.commission,
      paymentInterval: calculation.paymentInterval,
      rentalFactor: offer.rentalFactor,
      residualValue: offer.residualValue,
      purchasePrice: calculation.financedAmount,
      baseRate: offer.baseRate,
      monthlyRateAllIn: offer.monthlyRateAllIn,
      serviceCost: offer.calculationType === 'rent' ? calculation.serviceCost : '',
      recurringServiceFee: '',
      productSector: calculation.productSector,
      financingPartnerId: contacts.financingPartnerId,
      distributionHubId: contacts.distributionHubId,
      customSlaFileName: '',
    },
    contactPhone: input.phone,
    contactEmail: input.email,
  };
  const filed = await deps.store.fileNew(context.partnerId, calculationId, { ...input, productSector: calculation.productSector || null }, caseRequest);
  return createAndLinkCase(deps, filed.id, caseRequest, context);
}

/**
 * Asks case-workflow for the quote request's case and links it. A refusal means no case exists,
 * so the quote request is removed; without an answer the case may exist, so the quote request
 * stays new for the completion job (or is linked by a later answer).
 */
async function createAndLinkCase(
  deps: { store: QuoteRequestStore; caseWorkflow: CaseWorkflowPort },
  id: number,
  caseRequest: QuoteRequestCaseRequest,
  context: CallContext,
): Promise<QuoteRequest> {
  let created;
  try {
    created = await deps.caseWorkflow.createCaseFromQuoteRequest({ ...caseRequest, quoteRequestId: String(id) }, context);
  } catch (error) {
    if (isRefusal(error)) await deps.store.discardNew(id);
    throw error;
  }
  return deps.store.linkCase(id, created);
}

/**
 * The completion job's round: every quote request whose filing was interrupted is sent to
 * case-workflow again with the request kept for it and linked to the case it answers (the same
 * case when the first call had created it). Answers how many were completed and how many not.
 */
export async function completeInterruptedQuoteRequests(
  deps: { store: QuoteRequestStore; caseWorkflow: CaseWorkflowPort },
  now: Date,
  limit = 20,
): Promise<{ completed: number; failed: number }> {
  const interrupted = await deps.store.listInterrupted(new Date(now.getTime() - QUOTE_REQUEST_INTERRUPTED_AFTER_MS), limit);
  let completed = 0;
  for (const { quoteRequest, caseRequest } of interrupted) {
    try {
      await createAndLinkCase(deps, quoteRequest.id, caseRequest, { partnerId: quoteRequest.partnerId, requestId: `quote-request-${quoteRequest.id}` });
      completed += 1;
    } catch {
      // Refused (and removed), or case-workflow still unreachable: the next round tries again.
    }
  }
  return { completed, failed: interrupted.length - completed };
}

/** Follows the quote: when it is canceled, so is the quote request it was created for. */
export async function followCaseStatus(store: QuoteRequestStore, change: CaseStatusChange): Promise<boolean> {
  if (change.resourceType !== 'quote' || change.toStatus !== 'canceled') return false;
  return store.cancelOfCase(change);
}

export async function findQuoteRequest(store: QuoteRequestStore, partnerId: string, id: number): Promise<QuoteRequest> {
  const request = await store.find(partnerId, id);
  if (!request) throw notFound('quote_request.not_found', `No quote request ${id}.`);
  return request;
}
