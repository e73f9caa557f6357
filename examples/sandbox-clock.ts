/**
 * The sandbox clock (test clocks) with the typed client: a quote is sent to its customer, who
 * never answers; instead of waiting two weeks, the case's clock is advanced 15 days, and the
 * answer lists the two reminders and the expiry the clock applied. The case is review_expired,
 * the customer's link answers 410, and the partner's webhook endpoints receive the `expire` event
 * as in production.
 *
 *   npm start                     # the stack, in another terminal
 *   npm run example:sandbox-clock
 *
 * PARTNER_API_URL (default http://127.0.0.1:8080) and PARTNER_API_KEY (default: the sandbox key
 * of the demo partner acme from fixtures/seed.json) choose the deployment and the partner.
 */
import { randomUUID } from 'node:crypto';
import { createPartnerApiClient } from '@rental/partner-api-client';
import { customer, laptopCart } from './sample-order';

const BASE_URL = process.env.PARTNER_API_URL ?? 'http://127.0.0.1:8080';
const API_KEY = process.env.PARTNER_API_KEY ?? 'sbx_acme_7f3c2a91d4e6b8f0a1c3e5d7b9f1a2c4';

/** The value of a successful call, or an error naming the call, the status and the problem body. */
function ok<T>(what: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (!result.response.ok) throw new Error(`${what} failed: HTTP ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data as T;
}

async function main(): Promise<void> {
  const api = createPartnerApiClient(BASE_URL, API_KEY);

  console.log('1. A cart checked out as a quote only (no financing request yet)');
  const cart = ok('create the cart', await api.POST('/api/carts', { body: laptopCart }));
  const checkout = ok(
    'checkout',
    await api.POST('/api/carts/{id}/checkout', {
      params: { path: { id: cart.cartId }, header: { 'Idempotency-Key': randomUUID() } },
      body: { duration: 36, financingType: 'leasing', submitFinancing: false, customer },
    }),
  );
  const caseId = checkout.financeCaseId;

  console.log('2. The offer goes to the customer: the quote is in review, the customer has a link');
  const sent = ok('send to the customer', await api.POST('/api/financing_cases/{id}/send-to-customer', { params: { path: { id: caseId } }, body: {} }));
  const linkBefore = await fetch(sent.customerUrl);
  console.log(`   case ${caseId} is ${sent.status}; the customer's page answers ${linkBefore.status}`);

  console.log("3. The customer never answers: the case's clock moves 15 days forward");
  const advanced = ok(
    'advance the clock',
    await api.POST('/api/sandbox/financing_cases/{financingCaseId}/advance-clock', {
      params: { path: { financingCaseId: caseId } },
      body: { by: '15d' },
    }),
  );
  for (const effect of advanced.applied) console.log(`   ${effect.at}  ${effect.action}`);
  console.log(`   the case's clock is ${advanced.clockOffset} ahead; the case is ${advanced.status}`);

  console.log('4. What the partner and the customer see now');
  const financingCase = ok('read the case', await api.GET('/api/financing_cases/{id}', { params: { path: { id: caseId } } }));
  const linkAfter = await fetch(sent.customerUrl);
  console.log(`   the case is ${financingCase.status}; the customer's page answers ${linkAfter.status}`);
  console.log('   webhook endpoints of the partner received financing_case.status_changed with transition expire; sending the offer again reactivates it');
}

main().catch((error: unknown) => {
  console.error(`\nThe example stopped: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
