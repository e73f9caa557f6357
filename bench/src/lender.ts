import { ApiClient, WebhookReceiver, bootStack, fixturePartnerKey, percentile, runDate, shutdownStack } from '@rental/testkit';
import { report } from './report';
import { CART, CHECKOUT, idempotencyKey } from './requests';

/**
 * Checkout with submitFinancing → lender decision → partner webhook on a production stack whose
 * lender simulator decides at once (LENDER_SIMULATOR_DELAY=0s): how long a partner waits from
 * its checkout to the finance_accept webhook, at BENCH_LENDER_RATE cases a second.
 */
const TITLE = 'Lender round trip';
const CASES_PER_SECOND = Number(process.env.BENCH_LENDER_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_LENDER_SECONDS ?? 60);
/** Cases still waiting for their webhook this long after the last checkout count as lost. */
const DRAIN_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Flight {
  startedAt: number;
  checkoutMs?: number;
  webhookMs?: number;
  failed?: string;
}

async function main(): Promise<void> {
  const hook = await WebhookReceiver.start();
  const stack = await bootStack({ environment: 'production', env: { LENDER_SIMULATOR_DELAY: '0s', LOG_LEVEL: 'warn' } });
  try {
    const api = new ApiClient(stack.gatewayUrl, fixturePartnerKey('acme', 'production'));
    const registered = await api.post('/api/webhook_endpoints', { url: `${hook.url}/lender-bench` });
    if (registered.status !== 201) throw new Error(`registering the webhook endpoint gave ${registered.status}: ${registered.text}`);
    const flights = new Map<string, Flight>();
    const early = new Map<string, number>();
    hook.respondWith((request) => {
      const event = JSON.parse(request.rawBody.toString('utf8')) as { data: { financingCaseId: string; transition: string } };
      if (event.data.transition === 'finance_accept') {
        const flight = flights.get(event.data.financingCaseId);
        if (flight) flight.webhookMs ??= request.receivedAt - flight.startedAt;
        else early.set(event.data.financingCaseId, request.receivedAt);
      }
      return { status: 204 };
    });

    const started: Promise<void>[] = [];
    const total = CASES_PER_SECOND * SECONDS;
    const begin = Date.now();
    for (let index = 0; index < total; index += 1) {
      const due = begin + (index * 1000) / CASES_PER_SECOND;
      await sleep(Math.max(0, due - Date.now()));
      started.push(
        (async () => {
          const cart = await api.post('/api/carts', CART);
          if (cart.status !== 201) throw new Error(`cart ${cart.status}`);
          const startedAt = Date.now();
          const checkout = await api.request('POST', `/api/carts/${cart.json.cartId}/checkout`, { body: CHECKOUT, headers: idempotencyKey() });
          if (checkout.status !== 201) throw new Error(`checkout ${checkout.status}: ${checkout.text}`);
          const flight: Flight = { startedAt, checkoutMs: Date.now() - startedAt };
          const arrived = early.get(checkout.json.financeCaseId);
          if (arrived !== undefined) flight.webhookMs = arrived - startedAt;
          flights.set(checkout.json.financeCaseId, flight);
        })().catch((error: Error) => {
          flights.set(`failed-${index}`, { startedAt: Date.now(), failed: error.message });
        }),
      );
    }
    await Promise.all(started);
    const sentFor = (Date.now() - begin) / 1000;
    const drainUntil = Date.now() + DRAIN_MS;
    while (Date.now() < drainUntil && [...flights.values()].some((flight) => !flight.failed && flight.webhookMs === undefined)) await sleep(200);

    const all = [...flights.values()];
    const failed = all.filter((flight) => flight.failed);
    const roundTrips = all
      .map((flight) => flight.webhookMs)
      .filter((ms): ms is number => ms !== undefined)
      .sort((a, b) => a - b);
    const checkouts = all
      .map((flight) => flight.checkoutMs)
      .filter((ms): ms is number => ms !== undefined)
      .sort((a, b) => a - b);
    const lost = all.length - failed.length - roundTrips.length;
    const row = (label: string, values: number[]) =>
      `| ${label} | ${values.length} | ${percentile(values, 50)} | ${percentile(values, 99)} | ${values.at(-1) ?? '-'} |`;
    report(
      TITLE,
      [
        `Command: \`npm run bench:lender\` (${runDate()}; ${total} cases at ${CASES_PER_SECOND}/s, sent in ${sentFor.toFixed(1)} s, on a production stack booted by the test kit). Each case: a one-laptop cart, then a checkout with submitFinancing (default true) through the gateway with acme's production key; case-workflow submits it to the lender simulator (signed application, credit check by the credit bureau simulator), which decides at once (LENDER_SIMULATOR_DELAY=0s) through the signed callback; the partner's webhook receiver records the finance_accept event. Round trip: from sending the checkout to the webhook's arrival. ${failed.length} checkouts failed${failed[0] ? ` (first: ${failed[0].failed})` : ''}; ${lost} cases got no webhook within ${DRAIN_MS / 1000} s after the last checkout.`,
        '',
        '| measured | cases | p50 ms | p99 ms | max ms |',
        '| --- | ---: | ---: | ---: | ---: |',
        row('checkout response', checkouts),
        row('checkout → finance_accept webhook', roundTrips),
      ].join('\n'),
    );
  } finally {
    await shutdownStack(stack);
    await hook.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:lender failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
