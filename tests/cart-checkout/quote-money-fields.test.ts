/**
 * Each money field of a quote means one thing, whether checkout or a quote request created it.
 */
import { Owner, newPartner } from '../case-workflow/support/kit';
import { checkedOutCase, filedQuoteRequest } from '../support/partner-requests';
import { apiAs } from '../support/shared-stack';

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

describe('one meaning for each money field of a quote', () => {
  it('when one offer becomes a quote through checkout and through a quote request, then both quotes carry the same amounts', async () => {
    const fromCheckout = await checkedOutCase(owner.api);
    const fromRequest = (await filedQuoteRequest(owner.api)).json.quote as string;
    const money = (quote: Record<string, any>) => ({
      totalValue: quote.totalValue,
      monthlyCosts: quote.monthlyCosts,
      monthlyRateAllIn: quote.monthlyRateAllIn,
      rate: quote.selectedOffer.rate,
      rentalFactor: quote.rentalFactor,
    });
    const expected = { totalValue: 1000, monthlyCosts: 31.8, monthlyRateAllIn: 34.3, rate: 31.8, rentalFactor: '3.180' };
    expect(money((await owner.api.get(`/api/quotes/${fromCheckout.quoteId}`)).json)).toEqual(expected);
    expect(money((await owner.api.get(fromRequest)).json)).toEqual(expected);
  });

  it('when the API description is read, then monthlyCosts and monthlyRateAllIn say what they hold whatever created the quote', async () => {
    const quote = (await apiAs().get('/api/docs.json')).json.components.schemas.Quote.properties;
    expect(quote.monthlyCosts.description).toContain('without service cost or surcharge');
    expect(quote.monthlyRateAllIn.description).toContain("plus the rent service cost and the partner's monthly surcharge");
    for (const field of ['totalValue', 'monthlyCosts', 'monthlyRateAllIn'])
      expect(quote[field].description).toContain('One meaning whatever created the quote');
  });
});
