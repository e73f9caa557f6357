import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { StatusChangedEvent } from '@rental/proto';
import { ApiClient, ApiResponse, ProcessName, WebhookReceiver, waitFor } from '@rental/testkit';
import { sampleFile, upload } from '../../documents/support/kit';
import { rows } from '../../support/database';

/** Every status change written for a partner's cases (case-workflow's quotes and contracts, cart-checkout's quote requests), oldest first. */
export async function outboxOfPartner(databaseUrl: string, partnerId: string): Promise<StatusChangedEvent[]> {
  const found = await rows<{ payload: StatusChangedEvent }>(
    databaseUrl,
    `SELECT payload FROM (
      SELECT payload, 0 AS source, id FROM case_workflow.outbox WHERE payload->>'partnerId' = $1
      UNION ALL SELECT payload, 1 AS source, id FROM cart_checkout.outbox WHERE payload->>'partnerId' = $1
    ) written ORDER BY payload->>'occurredAt', source, id`,
    [partnerId],
  );
  return found.map((row) => row.payload);
}

/** Waits until the receiver holds every event id of the outbox (at least once). */
export async function waitForEveryEvent(receiver: WebhookReceiver, expected: StatusChangedEvent[], timeoutMs: number): Promise<void> {
  const wanted = new Set(expected.map((event) => event.id));
  await waitFor(
    () => {
      const seen = new Set(receiver.requests.map((request) => String(request.headers['webhook-id'])));
      return [...wanted].every((id) => seen.has(id)) ? true : undefined;
    },
    {
      timeoutMs,
      intervalMs: 250,
      what: `${wanted.size} events at the webhook receiver (have ${new Set(receiver.requests.map((request) => request.headers['webhook-id'])).size})`,
    },
  );
}

/**
 * What the receiver got against what case-workflow wrote: every event arrived, none arrived with
 * an id the outbox does not hold (a second id for one change), and each body is its event.
 */
export function deliveredAgainstOutbox(
  receiver: WebhookReceiver,
  written: StatusChangedEvent[],
): { lost: string[]; unknown: string[]; mismatched: string[]; redelivered: number } {
  const byId = new Map(written.map((event) => [event.id, event]));
  const bodies = receiver.bodies<Omit<StatusChangedEvent, 'partnerId' | 'environment'>>();
  const seen = new Set(bodies.map((body) => body.id));
  const mismatched = bodies
    .filter((body) => {
      const event = byId.get(body.id);
      if (!event) return false;
      const { partnerId: _partnerId, environment: _environment, ...expected } = event;
      return !isDeepStrictEqual(body, expected);
    })
    .map((body) => body.id);
  return {
    lost: written.filter((event) => !seen.has(event.id)).map((event) => event.id),
    unknown: [...seen].filter((id) => !byId.has(id)),
    mismatched,
    redelivered: bodies.length - seen.size,
  };
}

/** What a call did in the end, per attempt: an answer or a connection error. */
export interface Tally {
  attempts: number;
  byStatus: Record<string, number>;
  unexpected: string[];
}

class TransientError extends Error {}

/**
 * A partner's client that retries like a careful integration: a connection error or 503 is tried
 * again (same request, same Idempotency-Key), anything else must be the answer expected.
 */
export class RetryingClient {
  readonly tally: Tally = { attempts: 0, byStatus: {}, unexpected: [] };
  /** Successful answers, with the processes the call needed and when its attempt started. */
  readonly successes: { touches: ProcessName[]; startedAt: number; endedAt: number }[] = [];

  constructor(
    readonly api: ApiClient,
    private readonly deadlineMs = 60_000,
  ) {}

  /**
   * Calls until `accept` takes an answer. `retryable` may declare other answers transient (for
   * example 409 "still running"); `afterAmbiguous` judges an answer that follows a failed attempt
   * whose outcome is unknown (the write may have been applied).
   */
  async call(
    what: string,
    touches: ProcessName[],
    send: () => Promise<ApiResponse>,
    accept: (response: ApiResponse) => boolean,
    options: { retryable?: (response: ApiResponse) => boolean; afterAmbiguous?: (response: ApiResponse) => Promise<boolean> } = {},
  ): Promise<ApiResponse> {
    const deadline = Date.now() + this.deadlineMs;
    let ambiguous = false;
    while (Date.now() < deadline) {
      const startedAt = Date.now();
      this.tally.attempts += 1;
      let response: ApiResponse;
      try {
        response = await send();
      } catch {
        this.count('connection error');
        ambiguous = true;
        await pause(100);
        continue;
      }
      this.count(String(response.status));
      if (accept(response) || (ambiguous && options.afterAmbiguous && (await options.afterAmbiguous(response)))) {
        this.successes.push({ touches, startedAt, endedAt: Date.now() });
        return response;
      }
      if (response.status === 503 || options.retryable?.(response)) {
        ambiguous = true;
        await pause(100);
        continue;
      }
      this.tally.unexpected.push(`${what}: ${response.status} ${response.text.slice(0, 300)}`);
      throw new Error(`${what} answered ${response.status}: ${response.text.slice(0, 300)}`);
    }
    this.tally.unexpected.push(`${what}: no success within ${this.deadlineMs} ms`);
    throw new TransientError(`${what}: no success within ${this.deadlineMs} ms`);
  }

  private count(key: string): void {
    this.tally.byStatus[key] = (this.tally.byStatus[key] ?? 0) + 1;
  }
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The writes one journey got a 2xx for, to be found again afterwards. */
export interface Journey {
  calculationId: string;
  cartId: string;
  idempotencyKey: string;
  /** Every 201 answer the checkout got (a retry must give the same one). */
  checkouts: { financeCaseId: string; quoteId: string }[];
  documents: { id: number; bytes: Buffer }[];
  canceled: boolean;
}

const LAPTOP = { productNumber: 'LAPTOP-KILL', productName: 'Laptop', quantity: 1, price: 1000, categorySlug: 'laptops' };

/**
 * One partner's day in six calls: price, build a cart, check it out (Idempotency-Key), upload a
 * document, accept the financing (sandbox) and cancel. Five status changes per case.
 */
export async function runJourney(client: RetryingClient, index: number): Promise<Journey> {
  const { api } = client;
  const calculation = await client.call(
    'calculate',
    ['gateway', 'pricing'],
    () =>
      api.post('/api/calculate', { durations: [36], calculationTypes: ['leasing'], acquisitionCost: 1000 + index, productSector: 'IT_AND_OFFICE_EQUIPMENT' }),
    (r) => r.status === 201,
  );
  const cart = await client.call(
    'create cart',
    ['gateway', 'cart-checkout', 'pricing'],
    () => api.post('/api/carts', { items: [{ ...LAPTOP, price: 1000 + index }] }),
    (r) => r.status === 201,
  );
  const journey: Journey = {
    calculationId: calculation.json.id,
    cartId: cart.json.cartId,
    idempotencyKey: randomUUID(),
    checkouts: [],
    documents: [],
    canceled: false,
  };

  const checkoutBody = { duration: 36, financingType: 'leasing', customer: { company: `Kill ${index} GmbH` } };
  const checkout = await client.call(
    'checkout',
    ['gateway', 'cart-checkout', 'pricing', 'case-workflow'],
    () => api.post(`/api/carts/${journey.cartId}/checkout`, checkoutBody, { headers: { 'Idempotency-Key': journey.idempotencyKey } }),
    (r) => r.status === 201,
    // The cart is claimed by a checkout a killed process was running: the specification's 409 "still running", retried.
    { retryable: (r) => r.status === 409 && r.json?.type?.endsWith('/checkout.running') },
  );
  journey.checkouts.push({ financeCaseId: checkout.json.financeCaseId, quoteId: checkout.json.quoteId });
  const caseId: string = checkout.json.financeCaseId;
  // The same key again: the original answer, not a second case.
  const replay = await client.call(
    'checkout replay',
    ['gateway', 'cart-checkout'],
    () => api.post(`/api/carts/${journey.cartId}/checkout`, checkoutBody, { headers: { 'Idempotency-Key': journey.idempotencyKey } }),
    (r) => r.status === 201,
  );
  journey.checkouts.push({ financeCaseId: replay.json.financeCaseId, quoteId: replay.json.quoteId });

  const bytes = sampleFile('pdf', 2048);
  const document = await client.call(
    'upload',
    ['gateway', 'documents', 'case-workflow'],
    () => upload(api, caseId, { file: { bytes, name: `kill-${index}.pdf` }, category: 'other' }),
    (r) => r.status === 201,
  );
  journey.documents.push({ id: document.json.id, bytes });

  await client.call(
    'finance accepted',
    ['gateway', 'case-workflow'],
    () => api.post(`/api/sandbox/financing_cases/${caseId}/simulate`, { scenario: 'finance_accepted' }),
    (r) => r.status === 204,
  );
  await client.call(
    'cancel',
    ['gateway', 'case-workflow'],
    () => api.post(`/api/financing_cases/${caseId}/cancel`),
    (r) => r.status === 204,
    {
      // A cancel whose answer was lost may have been applied: then the case reads canceled and a second cancel is refused.
      afterAmbiguous: async (r) =>
        r.status === 422 &&
        (
          await client.call(
            'read case',
            ['gateway', 'case-workflow', 'documents'],
            () => api.get(`/api/financing_cases/${caseId}`),
            (read) => read.status === 200,
          )
        ).json.status === 'canceled',
    },
  );
  journey.canceled = true;
  return journey;
}
