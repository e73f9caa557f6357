import { ApiClient } from '@rental/testkit';
import { Owner, newPartner, sharedStack } from '../case-workflow/support/kit';
import { pdfLines } from '../lender/support/outside-parties';
import { quoteInProgress, tokenOf } from './support/customer-kit';

/**
 * Issue 27 item 5: what the customer is shown is what the customer pays. A monthly leasing of
 * 1000.00 at 3.180 % is 31.80 bare (the quote's monthlyCosts) and 34.30 with acme's 2.50 monthly
 * surcharge (monthlyRateAllIn); the customer view, the page and the offer PDF said 31.80. (The
 * contract PDF is checked on the production path, tests/lender/start-esignature.test.ts.)
 */
let owner: Owner;
let customer: ApiClient;

beforeAll(async () => {
  owner = await newPartner();
  customer = new ApiClient(sharedStack().gatewayUrl);
});

async function sentMonthlyQuote(terms: Record<string, string>): Promise<string> {
  const { caseId } = await quoteInProgress(owner, sharedStack(), { terms });
  const sent = await owner.api.post(`/api/financing_cases/${caseId}/send-to-customer`, {});
  expect(sent.status).toBe(200);
  return tokenOf(sent.json.customerUrl);
}

describe.each([
  ['a monthly leasing with the surcharge', { monthlyCosts: '31.80', monthlyRateAllIn: '34.30' }, 34.3, '34.30 EUR', '31.80'],
  [
    'a monthly rent with its service cost and the surcharge',
    { calculationType: 'rent', rentalFactor: '3.400', monthlyCosts: '34.00', serviceCost: '10.00', monthlyRateAllIn: '46.50' },
    46.5,
    '46.50 EUR',
    '34.00',
  ],
])('the rate the customer is shown for %s', (_case, terms, rate, text, bare) => {
  let token: string;

  beforeAll(async () => {
    token = await sentMonthlyQuote(terms);
  });

  it(`when the customer reads the view, then monthlyRate is ${rate}`, async () => {
    const view = await customer.get(`/customer/v1/quotes/${token}`);
    expect([view.status, view.json.monthlyRate]).toEqual([200, rate]);
  });

  it(`when the customer opens the page, then it says ${text} per month and never the bare ${bare}`, async () => {
    const page = await fetch(`${sharedStack().gatewayUrl}/c/${token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<strong>${text}</strong> per month`);
    expect(html).not.toContain(bare);
  });

  it(`when the customer downloads the offer PDF, then it says ${text} and never the bare ${bare}`, async () => {
    const offer = await fetch(`${sharedStack().gatewayUrl}/customer/v1/quotes/${token}/offer.pdf`);
    expect([offer.status, offer.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    const lines = pdfLines(Buffer.from(await offer.arrayBuffer()));
    expect(lines).toContain(`Monthly rate: ${text}`);
    expect(lines.join('\n')).not.toContain(bare);
  });
});
