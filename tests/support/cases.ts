import { grpcAddressOf } from '@rental/config';
import { TypedClient, createGrpcClient } from '@rental/grpc';
import { caseWorkflow, loadCaseWorkflowPackage } from '@rental/proto';
import { sampleCustomer } from '@rental/testkit';

export interface StackPorts {
  portBase: number;
}

export type CaseOptions = Partial<Omit<caseWorkflow.CreateCaseFromCheckoutRequest, 'terms'>> & { terms?: Partial<caseWorkflow.QuoteTerms> };

/** The customer createCaseViaGrpc files unless told otherwise: the sample customer with a phone, a VAT id and its type. */
export const caseCustomer = { ...sampleCustomer, phone: '+4930123', vatId: 'DE123456789', customerType: 'company' };

/**
 * Creates a financing case through case-workflow's gRPC call, the way checkout does, for tests
 * that need a case before (or without) the cart endpoints. One laptop at 1000.00, leasing 36
 * months at acme's 0 % tier (3.180), monthly.
 */
export async function createCaseViaGrpc(stack: StackPorts, partnerId: string, options: CaseOptions = {}): Promise<caseWorkflow.CreatedCase__Output> {
  const client = new TypedClient(createGrpcClient(loadCaseWorkflowPackage().CaseWorkflowService, grpcAddressOf('case-workflow', stack.portBase, {})), 10_000);
  try {
    return await client.call(
      'CreateCaseFromCheckout',
      {
        cartId: options.cartId ?? `TEST-CART-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
        items: options.items ?? [
          {
            position: 1,
            productNumber: 'LAPTOP-1',
            productName: 'Laptop',
            productSku: 'SKU-1',
            quantity: 1,
            pricePerItem: '1000.00',
            total: '1000.00',
            categoryId: 1,
            categorySlug: 'laptops',
            productOptions: {},
          },
        ],
        customer: options.customer ?? caseCustomer,
        hasDeliveryAddress: options.hasDeliveryAddress ?? false,
        deliveryAddress: options.deliveryAddress,
        terms: {
          calculationType: 'leasing',
          duration: 36,
          commission: 0,
          paymentInterval: 'monthly',
          rentalFactor: '3.180',
          residualValue: '',
          totalValue: '1000.00',
          monthlyCosts: '31.80',
          monthlyRateAllIn: '34.30',
          serviceCost: '',
          recurringServiceFee: '',
          productSector: 'IT_AND_OFFICE_EQUIPMENT',
          financingPartnerId: 'lender-a',
          distributionHubId: 'hub-north',
          customSlaFileName: '',
          ...options.terms,
        },
        hasPrintPlanTerms: options.hasPrintPlanTerms ?? false,
        printPlanTerms: options.printPlanTerms,
        submitFinancing: options.submitFinancing ?? true,
        quoteNumber: options.quoteNumber ?? '',
      },
      { partnerId, requestId: 'test-create-case' },
    );
  } finally {
    client.close();
  }
}
