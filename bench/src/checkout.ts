import type autocannon from 'autocannon';
import { fixturePartnerKey, runDate } from '@rental/testkit';
import { DirectAccess, againstDirect } from './direct';
import { BenchContext, runAlone } from './harness';
import { ROW_SECONDS, measure } from './load';
import { reportRuns } from './report';
import { CHECKOUT, JSON_TYPE, newCartRequest, idempotencyKey } from './requests';

const BENCHMARK = 'cart + checkout';
export const CHECKOUT_SECTION = 'Cart and checkout';

/**
 * Carts are created first (that run is measured too) and kept in a pool; each checkout takes
 * a cart of its own from the pool and sends a fresh Idempotency-Key.
 */
export async function checkoutBench({ stack, recorder }: BenchContext): Promise<void> {
  const carts: string[] = [];
  let poolRanDry = 0;
  const createCart = newCartRequest(carts);
  const checkout: autocannon.Request = {
    method: 'POST',
    body: JSON.stringify(CHECKOUT),
    setupRequest: (request) => {
      const cartId = carts.shift();
      if (!cartId) poolRanDry += 1;
      return { ...request, path: `/api/carts/${cartId ?? 'pool-ran-dry'}/checkout`, headers: { ...request.headers, ...JSON_TYPE, ...idempotencyKey() } };
    },
  };
  const base = { url: stack.gatewayUrl, headers: { 'X-Api-Key': fixturePartnerKey('acme') } };
  await measure({ label: 'warm-up', ...base, connections: 4, durationSeconds: 3, requests: [createCart, checkout] });
  poolRanDry = 0;
  const direct = new DirectAccess(stack);
  const cartCreation = await recorder.measure(BENCHMARK, {
    label: 'POST /api/carts, one item (saturated, 10 connections)',
    ...base,
    connections: 10,
    requests: [createCart],
  });
  const saturatedCheckout = await recorder.measure(BENCHMARK, {
    label: 'POST /api/carts/{id}/checkout with Idempotency-Key (saturated, 10 connections)',
    ...base,
    connections: 10,
    requests: [checkout],
  });
  const saturatedCheckoutDirect = await recorder.measure(BENCHMARK, {
    label: 'POST /api/carts/{id}/checkout with Idempotency-Key, cart-checkout direct (saturated, 10 connections)',
    url: direct.url('cart-checkout'),
    headers: await direct.headers(),
    connections: 10,
    requests: [checkout],
  });
  const rows = [
    cartCreation,
    againstDirect(saturatedCheckout, saturatedCheckoutDirect),
    saturatedCheckoutDirect,
    await recorder.measure(BENCHMARK, {
      label: 'POST /api/carts/{id}/checkout with Idempotency-Key (20 req/s)',
      ...base,
      overallRate: 20,
      requests: [checkout],
    }),
  ];
  if (poolRanDry > 0) throw new Error(`${poolRanDry} checkouts found no cart left in the pool; the cart run must create more`);
  reportRuns(
    CHECKOUT_SECTION,
    `Command: \`npm run bench:checkout\` (${runDate()}; ${ROW_SECONDS} s per row, through the gateway with acme's sandbox key; the saturated checkout also straight to cart-checkout with the identity the gateway would sign, as its reference). The cart run creates one-item carts (a laptop) and keeps them; each checkout takes one of them and sends a new Idempotency-Key, a 36-month leasing with submitFinancing left at its default (true), so every checkout creates a quote and financing case in case-workflow and submits it.`,
    rows,
  );
}

if (require.main === module) runAlone('bench:checkout', checkoutBench);
