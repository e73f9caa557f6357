/** The cart both examples create: one laptop at 1000 EUR. */
export const laptopCart = { items: [{ productNumber: 'LAPTOP-1', productName: 'Laptop', quantity: 1, price: 1000, categorySlug: 'laptops' }] };

/** The customer both examples check that cart out for: a company, as the checkout's `customer` field takes it. */
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
