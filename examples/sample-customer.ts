/** The customer both examples check a cart out for: a company, as the checkout's `customer` field takes it. */
export const customer = {
  firstName: 'Erika',
  lastName: 'Mustermann',
  email: 'erika@customer.example',
  street: 'Hauptstr.',
  houseNumber: '1',
  zipCode: '10115',
  city: 'Berlin',
  country: 'DE',
  company: 'Mustermann GmbH',
};
