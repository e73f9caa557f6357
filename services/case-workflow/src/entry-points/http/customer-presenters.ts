import { amountOfCents } from '@rental/money';
import type { CustomerView } from '../../domain/customer/customer';
import { customerMonthlyRateCents } from '../../domain/shared/model';

/** The customer's view: the offer in the customer's terms, never the partner's conditions. */
export function presentCustomerView(view: CustomerView) {
  const { quote, items } = view.details;
  return {
    quoteNumber: quote.quoteNumber,
    partner: { name: view.partnerName },
    customer: { company: quote.customer.company },
    status: quote.status,
    calculationType: quote.calculationType,
    duration: quote.duration,
    paymentInterval: quote.paymentInterval as 'monthly' | 'quarterly' | null,
    monthlyRate: amountOfCents(customerMonthlyRateCents(quote)),
    items: items.map((item) => ({ position: item.position, productNumber: item.productNumber, productName: item.productName, quantity: item.quantity })),
    expiresAt: view.expiresAt,
    actions: view.actions,
    requestedItems: view.requestedItems.map((item) => ({
      id: item.id,
      type: item.type,
      label: item.label,
      question: item.question,
      status: item.status,
      category: item.category,
      optional: item.optional,
      dueAt: item.dueAt,
    })),
  };
}

export type PresentedCustomerView = ReturnType<typeof presentCustomerView>;
