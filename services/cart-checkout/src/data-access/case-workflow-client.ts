import { TypedClient, createGrpcClient } from '@rental/grpc';
import { centsOfAmount, decimalOfCents } from '@rental/money';
import { loadCaseWorkflowPackage } from '@rental/proto';
import type { caseWorkflow } from '@rental/proto';
import type { CallContext, CaseWorkflowPort, CreatedCase, Customer, FrozenTerms, NewCheckoutCase, NewQuoteRequestCase } from '../domain/ports';

const toCustomer = (customer: Customer): caseWorkflow.Customer => ({
  firstName: customer.firstName ?? '',
  lastName: customer.lastName ?? '',
  email: customer.email ?? '',
  street: customer.street ?? '',
  houseNumber: customer.houseNumber ?? '',
  zipCode: customer.zipCode ?? '',
  city: customer.city ?? '',
  country: customer.country ?? '',
  phone: customer.phone ?? '',
  company: customer.company,
  vatId: customer.vatId ?? '',
  customerType: customer.customerType ?? '',
});

const toTerms = (terms: FrozenTerms): caseWorkflow.QuoteTerms => ({
  calculationType: terms.financingType,
  duration: terms.duration,
  commission: terms.commission,
  paymentInterval: terms.paymentInterval,
  rentalFactor: terms.rentalFactor,
  residualValue: terms.residualValue,
  totalValue: terms.purchasePrice,
  monthlyCosts: terms.baseRate,
  monthlyRateAllIn: terms.monthlyRateAllIn,
  serviceCost: terms.serviceCost,
  recurringServiceFee: terms.recurringServiceFee,
  productSector: terms.productSector,
  financingPartnerId: terms.financingPartnerId,
  distributionHubId: terms.distributionHubId,
  customSlaFileName: terms.customSlaFileName,
});

const toCreated = (created: caseWorkflow.CreatedCase__Output): CreatedCase => ({
  financingCaseId: created.financingCaseId,
  quoteId: created.quoteId,
  created: created.created,
  status: created.status,
});

/** case-workflow's gRPC calls behind the domain's port. */
export class CaseWorkflowClient implements CaseWorkflowPort {
  private readonly client: TypedClient<InstanceType<ReturnType<typeof loadCaseWorkflowPackage>['CaseWorkflowService']>>;

  constructor(address: string, deadlineMs: number) {
    this.client = new TypedClient(createGrpcClient(loadCaseWorkflowPackage().CaseWorkflowService, address), deadlineMs);
  }

  async createCaseFromCheckout(request: NewCheckoutCase, context: CallContext): Promise<CreatedCase> {
    const created = await this.client.call(
      'CreateCaseFromCheckout',
      {
        cartId: request.cartId,
        items: request.items.map((item, index) => ({
          position: index + 1,
          productNumber: item.productNumber,
          productName: item.productName ?? '',
          productSku: item.productSku ?? '',
          quantity: item.quantity,
          pricePerItem: decimalOfCents(centsOfAmount(item.price)),
          total: decimalOfCents(centsOfAmount(item.price) * BigInt(item.quantity)),
          categoryId: item.categoryId ?? 0,
          categorySlug: item.categorySlug ?? '',
          productOptions: item.productOptions ?? {},
        })),
        customer: toCustomer(request.customer),
        hasDeliveryAddress: request.deliveryAddress !== undefined,
        deliveryAddress: request.deliveryAddress ? { ...request.deliveryAddress, company: request.deliveryAddress.company ?? '' } : undefined,
        terms: toTerms(request.terms),
        hasPrintPlanTerms: request.printPlanTerms !== undefined,
        printPlanTerms: request.printPlanTerms,
        submitFinancing: request.submitFinancing,
        quoteNumber: request.quoteNumber ?? '',
      },
      context,
    );
    return toCreated(created);
  }

  async createCaseFromQuoteRequest(request: NewQuoteRequestCase, context: CallContext): Promise<CreatedCase> {
    const created = await this.client.call(
      'CreateCaseFromQuoteRequest',
      {
        quoteRequestId: request.quoteRequestId,
        calculationId: request.calculationId,
        customer: toCustomer(request.customer),
        terms: toTerms(request.terms),
        contactPhone: request.contactPhone ?? '',
        contactEmail: request.contactEmail ?? '',
      },
      context,
    );
    return toCreated(created);
  }

  close(): void {
    this.client.close();
  }
}
