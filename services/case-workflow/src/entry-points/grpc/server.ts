import type { ServiceBinding } from '@rental/grpc';
import { unaryHandlers } from '@rental/grpc';
import type { Logger } from '@rental/logger';
import { centsOfDecimal, milliOfPercentage, percentageOfMilli } from '@rental/money';
import { invalidInput, parsedAmount } from '@rental/problem';
import { loadCaseWorkflowPackage } from '@rental/proto';
import type { caseWorkflow } from '@rental/proto';
import { mapDatabaseError } from '@rental/service-host';
import { CheckoutCustomerChannel, CreatedCase, createCaseFromCheckout, createCaseFromQuoteRequest } from '../../domain/case/create-case';
import { resolveLink } from '../../domain/customer/customer';
import { resubmitToLender, sendLenderAttachments } from '../../domain/lender/lender';
import { Actor, Address, Customer, QuoteItem, QuoteTermsInput, SYSTEM_ACTOR } from '../../domain/shared/model';
import type { CaseStore } from '../../domain/case/ports';
import type { OpsReads } from '../../domain/operator/ports';
import type { ApplicationSource, LenderAdapter } from '../../domain/lender/ports';
import { caseAccess } from '../../domain/case/reads';
import { operatorUseCases } from './operator-handlers';

const parsed = <T>(read: () => T, field: string): T => parsedAmount('case.invalid_amount', field, read);

const text = (value: string | undefined | null) => (value ? value : null);

/** A percentage with three places ("3.18" → "3.180"); "" → null; anything else throws. */
const factorOf = (value: string) => (value.trim() === '' ? null : percentageOfMilli(milliOfPercentage(value)));

function storableFactor(value: string): string | null {
  try {
    return factorOf(value);
  } catch {
    return null;
  }
}

/** Proto3 has no null: each of these string fields of the message reads "" as absent (null). */
function textFields<K extends string>(message: Partial<Record<K, string>> | null, fields: readonly K[]): Record<K, string | null> {
  return Object.fromEntries(fields.map((field) => [field, text(message?.[field])])) as Record<K, string | null>;
}

const CUSTOMER_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'street',
  'houseNumber',
  'zipCode',
  'city',
  'country',
  'phone',
  'company',
  'vatId',
  'customerType',
] as const satisfies readonly (keyof Customer)[];
const ADDRESS_FIELDS = ['recipientName', 'company', 'street', 'houseNumber', 'zipCode', 'city', 'country'] as const satisfies readonly (keyof Address)[];

const toCustomer = (customer: caseWorkflow.Customer__Output | null): Customer => textFields(customer, CUSTOMER_FIELDS);
const toAddress = (address: caseWorkflow.Address__Output): Address => textFields(address, ADDRESS_FIELDS);

function toTerms(terms: caseWorkflow.QuoteTerms__Output | null): QuoteTermsInput {
  if (!terms) throw invalidInput('case.terms_missing', 'terms are required.');
  return {
    calculationType: terms.calculationType,
    duration: terms.duration,
    commissionPercentage: terms.commission,
    paymentInterval: text(terms.paymentInterval),
    rentalFactor: parsed(() => factorOf(terms.rentalFactor), 'rental_factor'),
    residualValue: parsed(() => factorOf(terms.residualValue), 'residual_value'),
    totalValueCents: parsed(() => centsOfDecimal(terms.totalValue), 'total_value'),
    monthlyCostsCents: parsed(() => centsOfDecimal(terms.monthlyCosts), 'monthly_costs'),
    monthlyRateAllInCents: parsed(() => centsOfDecimal(terms.monthlyRateAllIn), 'monthly_rate_all_in'),
    serviceCostCents: parsed(() => centsOfDecimal(terms.serviceCost), 'service_cost'),
    recurringServiceFeeCents: parsed(() => centsOfDecimal(terms.recurringServiceFee), 'recurring_service_fee'),
    productSector: text(terms.productSector),
    financingPartnerId: text(terms.financingPartnerId),
    distributionHub: text(terms.distributionHubId),
    customSlaFileName: text(terms.customSlaFileName),
  };
}

function toItems(items: caseWorkflow.QuoteItem__Output[]): QuoteItem[] {
  return items.map((item, index) => ({
    position: item.position || index + 1,
    productNumber: item.productNumber,
    productName: text(item.productName),
    productSku: text(item.productSku),
    quantity: item.quantity,
    pricePerItemCents: parsed(() => centsOfDecimal(item.pricePerItem) ?? 0n, 'price_per_item'),
    totalCents: parsed(() => centsOfDecimal(item.total) ?? 0n, 'total'),
    categoryId: item.categoryId || null,
    categorySlug: text(item.categorySlug),
    productOptions: item.productOptions ?? {},
  }));
}

const createdMessage = (created: CreatedCase): caseWorkflow.CreatedCase => ({
  financingCaseId: created.financingCaseId,
  quoteId: created.quoteId,
  caseNumber: created.caseNumber,
  quoteNumber: created.quoteNumber,
  created: created.created,
  status: created.status,
});

const operatorOr = (id: string, name: string): Actor => (id ? { type: 'operator', id, name: name || null } : SYSTEM_ACTOR);

/** The calls cart-checkout, documents and the back office make; each adapts a message to a use case and back. */
export function caseWorkflowGrpcService(
  store: CaseStore,
  log: Logger,
  lenderSide: { applications: ApplicationSource; lender: LenderAdapter },
  opsReads: OpsReads,
  channel: CheckoutCustomerChannel,
): ServiceBinding {
  const mappers = [mapDatabaseError];
  const implementation = unaryHandlers<caseWorkflow.CaseWorkflowServiceHandlers>(log, mappers, {
    CreateCaseFromCheckout: async (request, { partnerId }) => {
      const created = await createCaseFromCheckout(
        store,
        {
          partnerId,
          cartId: request.cartId,
          items: toItems(request.items),
          customer: toCustomer(request.customer),
          deliveryAddress: request.hasDeliveryAddress && request.deliveryAddress ? toAddress(request.deliveryAddress) : null,
          terms: toTerms(request.terms),
          printPlanTerms: request.hasPrintPlanTerms && request.printPlanTerms ? { ...request.printPlanTerms } : null,
          submitFinancing: request.submitFinancing,
          quoteNumber: text(request.quoteNumber.trim()),
        },
        channel,
      );
      return createdMessage(created);
    },
    CreateCaseFromQuoteRequest: async (request, { partnerId }) => {
      const created = await createCaseFromQuoteRequest(store, {
        partnerId,
        quoteRequestId: request.quoteRequestId,
        calculationId: request.calculationId,
        customer: toCustomer(request.customer),
        terms: toTerms(request.terms),
        contactPhone: text(request.contactPhone),
        contactEmail: text(request.contactEmail),
      });
      return createdMessage(created);
    },
    GetCaseAccess: async (request) => caseAccess(store, request.financingCaseId),
    HasQuoteWithRentalFactor: async (request, { partnerId }) => {
      // A factor no quote can hold (empty, or beyond a quote's six integer digits) is on no quote;
      // a caller naming no term (type and duration) asks about no quote either.
      const rentalFactor = storableFactor(request.rentalFactor);
      if (rentalFactor === null || !request.calculationType || request.duration < 1) return { exists: false };
      return {
        exists: await store.hasQuoteWithRentalFactor(partnerId, rentalFactor, { calculationType: request.calculationType, duration: request.duration }),
      };
    },
    SendLenderAttachments: async (request) => {
      const items = request.items.map((item) => ({
        id: item.id,
        type: item.type,
        label: item.label,
        category: item.category,
        ...(item.type === 'information'
          ? { answer: item.answer }
          : {
              documents: item.documents.map((document) => ({
                fileName: document.fileName,
                mimeType: document.mimeType,
                contentBase64: document.contentBase64,
              })),
            }),
      }));
      return sendLenderAttachments({ store, ...lenderSide }, request.financingCaseId, items, operatorOr(request.operatorId, request.operatorName));
    },
    ResubmitToLender: async (request) => {
      await resubmitToLender({ store }, request.financingCaseId, operatorOr(request.operatorId, request.operatorName));
      return {};
    },
    ...operatorUseCases({ store, reads: opsReads, partners: channel.partners }),
    ResolveCustomerLink: async (request) => {
      const { state, opened } = await resolveLink({ store, customer: channel.settings }, request.token);
      return {
        state,
        financingCaseId: opened?.financingCase.id ?? '',
        partnerId: opened?.financingCase.partnerId ?? '',
        viewOnly: opened?.link.viewOnly ?? false,
        status: opened?.financingCase.status ?? '',
      };
    },
  });
  return { definition: loadCaseWorkflowPackage().CaseWorkflowService.service, implementation };
}
