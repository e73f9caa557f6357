import { actionsOf, deliveryRecipientLines } from './customer';
import { hashCustomerToken, looksLikeCustomerToken, newCustomerToken } from './customer-token';
import type { Quote } from '../shared/model';
import { QUOTE_STATES } from '../quote/quote-machine';

const customer = {
  firstName: 'Mara',
  lastName: 'Keller',
  email: 'mara@kunde.example',
  street: 'Hauptstrasse',
  houseNumber: '1',
  zipCode: '10115',
  city: 'Berlin',
  country: 'DE',
  phone: null,
  company: 'Kunde GmbH',
  vatId: null,
  customerType: 'company',
};
const quoteWith = (shippingAddress: Quote['shippingAddress']) => ({ customer, shippingAddress }) as Quote;

describe('customer links', () => {
  it('when a token is made, then it has 256 random bits in 43 URL-safe characters and only its SHA-256 is stored', () => {
    const tokens = new Set(Array.from({ length: 100 }, newCustomerToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(looksLikeCustomerToken(token)).toBe(true);
    const [token] = tokens;
    expect(hashCustomerToken(token as string)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashCustomerToken(token as string)).not.toContain(token);
    expect(looksLikeCustomerToken('not-a-token')).toBe(false);
  });

  it('when the quote is in review and the link allows actions, then accept, request_changes and reject are allowed; else none', () => {
    expect(QUOTE_STATES.filter((status) => actionsOf(status, false).length > 0)).toEqual(['in_review']);
    expect(actionsOf('in_review', false)).toEqual(['accept', 'request_changes', 'reject']);
    expect(actionsOf('in_review', true)).toEqual([]);
  });
});

describe('the delivery recipient of the offer', () => {
  it('when the checkout gave a delivery address, then exactly that recipient shows, without the lessee company', () => {
    expect(
      deliveryRecipientLines(
        quoteWith({ recipientName: 'Lager Süd', company: null, street: 'Hafenweg', houseNumber: '9', zipCode: '20457', city: 'Hamburg', country: 'DE' }),
      ),
    ).toEqual(['Lager Süd', 'Hafenweg 9', '20457 Hamburg', 'DE']);
  });

  it("when there was no delivery address, then the customer's company and person at the customer's address", () => {
    expect(
      deliveryRecipientLines(
        quoteWith({
          recipientName: 'Mara Keller',
          company: 'Kunde GmbH',
          street: 'Hauptstrasse',
          houseNumber: '1',
          zipCode: '10115',
          city: 'Berlin',
          country: 'DE',
        }),
      ),
    ).toEqual(['Kunde GmbH', 'Mara Keller', 'Hauptstrasse 1', '10115 Berlin', 'DE']);
  });
});
