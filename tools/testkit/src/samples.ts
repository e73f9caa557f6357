/**
 * The sample data the partner journeys send in tests and benchmarks, written once: the customer a
 * cart is checked out for, the person who files a quote request, and a delivery address other
 * than the customer's. The customer is the runnable examples' own (examples/sample-order.ts): the
 * examples depend on the typed client only, so the test kit takes it from them, and tests send
 * what a partner reads there.
 */
import { customer } from '@rental/examples/sample-order';

export const sampleCustomer = customer;

/** The sample customer's own address as a quote's shipping address (what a quote shows without a delivery address). */
export const sampleCustomerAddress = {
  recipientName: `${sampleCustomer.firstName} ${sampleCustomer.lastName}`,
  company: sampleCustomer.company,
  street: sampleCustomer.street,
  houseNumber: sampleCustomer.houseNumber,
  zipCode: sampleCustomer.zipCode,
  city: sampleCustomer.city,
  country: sampleCustomer.country,
};

export const sampleDeliveryAddress = {
  recipientName: 'Lager Nord',
  company: null,
  street: 'Hafenweg',
  houseNumber: '7',
  zipCode: '20457',
  city: 'Hamburg',
  country: 'DE',
};

/** The person who files a quote request (POST /api/quote_requests), without the calculation it refers to. */
export const sampleRequester = {
  email: 'max@customer.example',
  firstName: 'Max',
  lastName: 'Muster',
  customerType: 'company',
  street: 'Ring 1',
  postalCode: '50667',
  city: 'Köln',
  country: 'DE',
  company: 'Muster AG',
  phone: '+49221000',
  acknowledgedPrivacy: true,
};
