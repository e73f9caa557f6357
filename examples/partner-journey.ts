/**
 * A partner's whole journey through the Partner Rental API with the typed client generated from
 * the API description: calculate an offer, create a cart, check it out, let the sandbox lender
 * accept, start the e-signature, and receive the signed `financing_case.status_changed` webhooks
 * on a small HTTP receiver started here.
 *
 *   WEBHOOK_ALLOW_PRIVATE_URLS=true npm start     # the stack, in another terminal
 *   npm run example:journey
 *
 * PARTNER_API_URL (default http://127.0.0.1:8080) and PARTNER_API_KEY (default: the sandbox key
 * of the demo partner acme from fixtures/seed.json) choose the deployment and the partner. The
 * receiver listens on 127.0.0.1 (WEBHOOK_PORT, default any free port); a deployment that accepts
 * only public https webhook URLs needs WEBHOOK_PUBLIC_URL, a public https address (a tunnel) that
 * forwards to the receiver.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type components, createPartnerApiClient } from '@rental/partner-api-client';
import { customer, laptopCart } from './sample-order';

type StatusChanged = components['schemas']['FinancingCaseStatusChangedEvent'];

const BASE_URL = process.env.PARTNER_API_URL ?? 'http://127.0.0.1:8080';
const API_KEY = process.env.PARTNER_API_KEY ?? 'sbx_acme_7f3c2a91d4e6b8f0a1c3e5d7b9f1a2c4';
const WEBHOOK_TIMEOUT_MS = 30_000;

let stepNumber = 0;
function step(text: string): void {
  stepNumber += 1;
  console.log(`\n${stepNumber}. ${text}`);
}

function detail(text: string): void {
  console.log(`   ${text}`);
}

/** The value of a successful call, or an error naming the call, the status and the problem body. */
function expectOk<T>(what: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (!result.response.ok) throw new Error(`${what} failed: HTTP ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data as T;
}

/** Receives webhooks, checks X-Webhook-Signature over the raw body and keeps the events. */
class WebhookReceiver {
  readonly events: StatusChanged[] = [];
  secret = '';

  private constructor(private readonly server: http.Server) {}

  static async start(port: number): Promise<WebhookReceiver> {
    const server = http.createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => res.writeHead(receiver.receive(Buffer.concat(chunks), req.headers['x-webhook-signature'])).end());
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks/rental`;
  }

  /** 204 for a correctly signed event, 401 otherwise (the API then retries). */
  private receive(rawBody: Buffer, signature: string | string[] | undefined): number {
    const expected = createHmac('sha256', this.secret).update(rawBody).digest();
    const given = Buffer.from(typeof signature === 'string' ? signature : '', 'base64');
    if (!this.secret || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      detail('webhook with a wrong signature refused');
      return 401;
    }
    const event = JSON.parse(rawBody.toString('utf8')) as StatusChanged;
    if (this.events.some((known) => known.id === event.id)) return 204;
    this.events.push(event);
    detail(`webhook (signature ok): ${event.data.resourceType} ${event.data.fromStatus} → ${event.data.toStatus} (${event.data.transition})`);
    return 204;
  }

  async waitFor(what: string, found: (event: StatusChanged) => boolean): Promise<StatusChanged> {
    const deadline = Date.now() + WEBHOOK_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const event = this.events.find(found);
      if (event) return event;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no webhook ${what} within ${WEBHOOK_TIMEOUT_MS / 1000} s`);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function main(): Promise<void> {
  const api = createPartnerApiClient(BASE_URL, API_KEY);
  const receiver = await WebhookReceiver.start(Number(process.env.WEBHOOK_PORT ?? 0));
  let endpointId: string | undefined;
  try {
    step(`Register a webhook endpoint at ${process.env.WEBHOOK_PUBLIC_URL ?? receiver.url}`);
    const registration = await api.POST('/api/webhook_endpoints', { body: { url: process.env.WEBHOOK_PUBLIC_URL ?? receiver.url } });
    if (registration.response.status === 422) {
      detail(
        'The deployment refuses this URL. Locally, start the stack with WEBHOOK_ALLOW_PRIVATE_URLS=true; elsewhere set WEBHOOK_PUBLIC_URL to a public https address that reaches this receiver.',
      );
    }
    const endpoint = expectOk('registering the webhook endpoint', registration);
    endpointId = endpoint.id;
    receiver.secret = endpoint.secret;
    detail(`endpoint ${endpoint.id}; its secret is shown only now and signs every delivery`);

    step('Calculate a leasing offer: a 1,000 EUR laptop over 36 months');
    const calculation = expectOk(
      'calculate',
      await api.POST('/api/calculate', {
        body: { durations: [36], calculationTypes: ['leasing'], acquisitionCost: 1000, productSector: 'IT_AND_OFFICE_EQUIPMENT' },
      }),
    );
    for (const offer of calculation.response.offers)
      detail(`${offer.calculationType}, ${offer.duration} months: ${offer.rate.toFixed(2)} EUR a month (rental factor ${offer.rentalFactor} %)`);
    detail(`stored as ${calculation.uri}`);

    step('Create a cart with the laptop');
    const cart = expectOk('create the cart', await api.POST('/api/carts', { body: laptopCart }));
    detail(`cart ${cart.cartId}: purchase price ${cart.purchasePrice} EUR, ${cart.financingOptions.length} financing options`);

    step('Check the cart out (leasing, 36 months) with an Idempotency-Key');
    const checkout = expectOk(
      'checkout',
      await api.POST('/api/carts/{id}/checkout', {
        params: { path: { id: cart.cartId }, header: { 'Idempotency-Key': randomUUID() } },
        body: { duration: 36, financingType: 'leasing', customer },
      }),
    );
    const caseId = checkout.financeCaseId;
    detail(`financing case ${caseId} (${checkout.financeCaseLink}): ${checkout.message}`);
    const submitted = expectOk('read the financing case', await api.GET('/api/financing_cases/{id}', { params: { path: { id: caseId } } }));
    detail(`case ${submitted.caseNumber} is ${submitted.status}`);

    step('Sandbox: the lender accepts the financing');
    expectOk(
      'finance decision',
      await api.POST('/api/sandbox/financing_cases/{id}/finance-decision', { params: { path: { id: caseId } }, body: { decision: 'accepted' } }),
    );
    await receiver.waitFor('for the acceptance', (event) => event.data.financingCaseId === caseId && event.data.toStatus === 'finance_accepted');

    step('Start the e-signature of the contract');
    const signature = expectOk(
      'start the e-signature',
      await api.POST('/api/financing-cases/{financingCaseId}/start-esignature', {
        params: { path: { financingCaseId: caseId } },
        body: { authorizedPersons: [{ firstName: 'Anna', lastName: 'Berg', email: 'anna.berg@customer.example', soloSigneePermitted: true }] },
      }),
    );
    detail(`envelope ${signature.envelopeId} ${signature.status} to ${signature.authorizedPersons.map((person) => person.email).join(', ')}`);
    await receiver.waitFor('for the new contract', (event) => event.data.financingCaseId === caseId && event.data.resourceType === 'contract');
    const contract = expectOk('read the contract', await api.GET('/api/contracts/{id}', { params: { path: { id: signature.contractId } } }));
    detail(`contract ${contract.id} is ${contract.status}`);

    step('Done');
    detail(`${receiver.events.filter((event) => event.data.financingCaseId === caseId).length} signed status webhooks received for case ${caseId}`);
  } finally {
    // Leave the partner's endpoints as they were (a partner may register at most 20).
    if (endpointId) await api.DELETE('/api/webhook_endpoints/{id}', { params: { path: { id: endpointId } } });
    await receiver.close();
  }
}

main().catch((error: unknown) => {
  console.error(`\nThe journey stopped: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
