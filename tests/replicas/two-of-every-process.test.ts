import { randomBytes, randomUUID } from 'node:crypto';
import { DEMO_SEED_FILE, readSeedFile } from '@rental/stack/fixture';
import { defaultAdminPort } from '@rental/config';
import {
  ApiClient,
  ApiResponse,
  PrivatePostgres,
  ProcessName,
  ReceivedMail,
  Replicas,
  Stack,
  WebhookReceiver,
  bootReplicas,
  bootStack,
  shutdownStack,
  waitFor,
} from '@rental/testkit';
import type { StatusChangedEvent } from '@rental/proto';
import { EventListener, Owner, eventsOf, newPartner, query } from '../case-workflow/support/kit';
import { customerEmail, customerWith, mailOf, tokenOf } from '../customer/support/customer-kit';
import { OutsideParty, postRaw, signedEvent } from '../lender/support/outside-parties';
import { Ops } from '../backoffice/support/kit';
import { expectedBody, registerEndpoint } from '../notifications/support';
import { scrapeMetrics, sumOf } from '../support/metrics';

/**
 * Two of every process (gateway, pricing, cart-checkout, case-workflow, documents, notifications,
 * backoffice) on one database and one NATS, a production stack whose lender and signing provider
 * are HTTP servers of this test. The second gateway proxies to the second set of services and
 * those call each other, like a second set of pods; the workers of both sets (outbox relay,
 * lender submissions, the clock, webhook and mail delivery, bus consumers) share the queues.
 * Partner journeys, customers, lender and signing callbacks go through both gateways in turn.
 */
const seed = readSeedFile(DEMO_SEED_FILE);
const lenderA = seed.lenders.find((lender) => lender.id === 'lender-a')!;
const SIGNING_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

const TICK = '1s';
const REMINDER_AFTER_MS = 2000;
const REMINDER_MAX = 2;
/**
 * Both reminders fall due by 4 s after the offer when ticks are on time; expiry comes first when
 * both are due (an expiring offer gets no reminder), so the gap leaves room for ticks that a
 * loaded machine runs seconds late (in CI the first reminder went out 5 s after the offer).
 */
const EXPIRY_AFTER_MS = 12_000;
/** How long an effect may take on a loaded machine before the test gives up. */
const SLACK_MS = 30_000;

/** Cases checked out with submitFinancing, then lender, e-signature and signed contract. */
const FINANCED_JOURNEYS = 6;
/** Cases sent to the customer, who accepts through the link; then as above. */
const ACCEPTED_JOURNEYS = 2;
/** Cases sent to a customer who never answers: the clock reminds and expires them. */
const UNANSWERED_OFFERS = 2;
/** Journeys under way at once: enough to interleave both sets of processes on every step. */
const JOURNEYS_AT_ONCE = 4;
/** Fourteen processes at their default pools (6, notifications 16) need up to ~110 connections. */
const MAX_CONNECTIONS = 200;

const SIGNED = ['quote:finance_accept', 'contract:create', 'contract:sign'];
const FINANCED_MOVES = ['quote:create', 'quote:accept_by_customer', 'quote:request_finance_review', ...SIGNED];
const ACCEPTED_MOVES = ['quote:create', 'quote:finalize', 'quote:accept_by_customer', 'quote:request_finance_review', ...SIGNED];
const UNANSWERED_MOVES = ['quote:create', 'quote:finalize', 'quote:expire'];

type Kind = 'financed' | 'accepted' | 'unanswered';

interface Journey {
  kind: Kind;
  caseId: string;
  quoteId: string;
  email: string;
  quoteNumber: string;
}

let postgres: PrivatePostgres;
let stack: Stack;
let replicas: Replicas;
let lender: OutsideParty;
let signing: OutsideParty;
let hook: WebhookReceiver;
let listener: EventListener;
let owner: Owner;
/** The partner's client through the first and the second gateway. */
let partnerVia: [ApiClient, ApiClient];
let customerVia: [ApiClient, ApiClient];
let operatorVia: [Ops, Ops];
const journeys: Journey[] = [];
/** Answers of callbacks sent through both gateways at once. */
const callbackAnswers: number[] = [];
let drivenMs = 0;

const laptop = { productNumber: 'LAPTOP-1', productName: 'Laptop', quantity: 1, price: 1000, categorySlug: 'laptops' };

function expectStatus(response: ApiResponse, status: number, what: string): ApiResponse {
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status} ${response.text}`);
  return response;
}

/** The same signed callback through both gateways at once, as a lender retrying on a timeout would. */
async function callbackThroughBoth(path: string, event: { raw: string; headers: Record<string, string> }): Promise<void> {
  const answers = await Promise.all([stack.gatewayUrl, replicas.gatewayUrl].map((gatewayUrl) => postRaw(`${gatewayUrl}${path}`, event.raw, event.headers)));
  callbackAnswers.push(...answers.map((answer) => answer.status));
}

async function quoteOf(api: ApiClient, quoteId: string): Promise<any> {
  return expectStatus(await api.get(`/api/quotes/${quoteId}`), 200, 'the quote').json;
}

/** Cart on one gateway, checkout on the other; for the customer kinds, send-to-customer. */
async function checkout(index: number, kind: Kind): Promise<{ journey: Journey; customerUrl?: string }> {
  const [here, there] = index % 2 === 0 ? partnerVia : [partnerVia[1], partnerVia[0]];
  const email = customerEmail();
  const cart = expectStatus(await here.post('/api/carts', { items: [laptop] }), 201, 'the cart');
  const body = { duration: 36, financingType: 'leasing', customer: customerWith(email), submitFinancing: kind === 'financed' };
  const checkedOut = expectStatus(
    await there.post(`/api/carts/${cart.json.cartId}/checkout`, body, { headers: { 'Idempotency-Key': randomUUID() } }),
    201,
    'the checkout',
  );
  const { quoteId } = checkedOut.json;
  const journey: Journey = { kind, caseId: checkedOut.json.financeCaseId, quoteId, email, quoteNumber: (await quoteOf(here, quoteId)).quoteNumber };
  journeys.push(journey);
  if (kind === 'financed') return { journey };
  const sent = expectStatus(await here.post(`/api/financing_cases/${journey.caseId}/send-to-customer`, {}), 200, 'send-to-customer');
  return { journey, customerUrl: sent.json.customerUrl };
}

/** From finance review to the signed contract: lender, decision, e-signature, provider callbacks. */
async function financeAndSign(index: number, journey: Journey): Promise<void> {
  const [here, there] = index % 2 === 0 ? partnerVia : [partnerVia[1], partnerVia[0]];
  const { caseId } = journey;
  const reference = await waitFor(
    async () => {
      const quote = await quoteOf(here, journey.quoteId);
      return quote.lenderSubmissionStatus === 'submitted' ? (quote.financingNumber as string) : undefined;
    },
    { timeoutMs: SLACK_MS, intervalMs: 250, what: `the lender submission of ${caseId}` },
  );

  await callbackThroughBoth(
    `/lender/v1/${lenderA.id}/events`,
    signedEvent(lenderA.webhookSecret, 'application.accepted', { financingCaseId: caseId, reference, signingStatement: null }),
  );
  const started = expectStatus(
    await there.post(`/api/financing-cases/${caseId}/start-esignature`, {
      authorizedPersons: [{ firstName: 'Mara', lastName: 'Keller', email: journey.email, soloSigneePermitted: true }],
    }),
    200,
    'start-esignature',
  ).json as { contractId: string; envelopeId: string };
  const providerEnvelopeId = `PE-${started.envelopeId}`;
  await callbackThroughBoth('/signing/v1/events', signedEvent(SIGNING_SECRET, 'envelope.sent', { envelopeId: started.envelopeId, providerEnvelopeId }));
  const signedPdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(512), Buffer.from('\n%%EOF\n')]);
  await callbackThroughBoth(
    '/signing/v1/events',
    signedEvent(SIGNING_SECRET, 'envelope.signed', {
      envelopeId: started.envelopeId,
      providerEnvelopeId,
      signedDocument: { fileName: 'contract-signed.pdf', contentBase64: signedPdf.toString('base64') },
    }),
  );

  const contract = expectStatus(await here.get(`/api/contracts/${started.contractId}`), 200, 'the contract').json;
  if (contract.status !== 'signed') throw new Error(`contract of ${caseId} is ${contract.status}`);
  // The signed PDF through the documents of either set, byte for byte.
  for (const api of partnerVia) {
    const [document, ...more] = expectStatus(await api.get(`/api/financing-cases/${caseId}/documents`), 200, 'the documents').json;
    if (more.length > 0 || document.category !== 'signed_contract') throw new Error(`documents of ${caseId}: ${JSON.stringify([document, ...more])}`);
    const download = await fetch(`${api.baseUrl}${document.downloadUrl}`, { headers: { 'X-Api-Key': owner.partner.key } });
    if (download.status !== 200 || !Buffer.from(await download.arrayBuffer()).equals(signedPdf)) throw new Error(`download of ${caseId}: ${download.status}`);
  }
}

async function financedJourney(index: number): Promise<void> {
  const { journey } = await checkout(index, 'financed');
  await financeAndSign(index, journey);
}

async function acceptedJourney(index: number): Promise<void> {
  const { journey, customerUrl } = await checkout(index, 'accepted');
  const accepted = expectStatus(
    await customerVia[(index + 1) % 2].post(`/customer/v1/quotes/${tokenOf(customerUrl as string)}/accept`),
    200,
    "the customer's accept",
  );
  if (accepted.json.status !== 'finance_review') throw new Error(`accepted quote is ${accepted.json.status}`);
  await financeAndSign(index, journey);
}

async function unansweredOffer(index: number): Promise<void> {
  const { journey } = await checkout(index, 'unanswered');
  await waitFor(async () => ((await quoteOf(partnerVia[index % 2], journey.quoteId)).status === 'review_expired' ? true : undefined), {
    timeoutMs: EXPIRY_AFTER_MS + SLACK_MS,
    intervalMs: 250,
    what: `the expiry of ${journey.caseId}`,
  });
}

const ENDPOINT_PATHS = ['first-endpoint', 'second-endpoint'];
const eventsByCase = new Map<string, StatusChangedEvent[]>();
let mails: ReceivedMail[] = [];

beforeAll(async () => {
  lender = await OutsideParty.start(lenderA.webhookSecret, (request) => ({
    status: 200,
    body: { reference: `REF-${String(request.body?.data?.applicationId).slice(-8)}` },
    delayMs: 300,
  }));
  signing = await OutsideParty.start(SIGNING_SECRET, (request) => ({
    status: 200,
    body: { providerEnvelopeId: `PE-${String(request.body?.data?.envelopeId)}` },
  }));
  hook = await WebhookReceiver.start();
  // A Postgres of its own: the machine's (max_connections 100) is shared with other stacks.
  postgres = await PrivatePostgres.launch(MAX_CONNECTIONS);
  stack = await bootStack({
    postgresUrl: postgres.url,
    environment: 'production',
    env: {
      SIGNING_WEBHOOK_SECRET: SIGNING_SECRET,
      SIGNING_PROVIDER_URL: signing.url,
      LENDER_SUBMISSION_POLL_MS: '200',
      DOCUMENT_DUE_AFTER: '7d',
      SCHEDULER_TICK: TICK,
      REVIEW_REMINDER_AFTER: `${REMINDER_AFTER_MS / 1000}s`,
      REVIEW_REMINDER_MAX: String(REMINDER_MAX),
      REVIEW_EXPIRY_AFTER: `${EXPIRY_AFTER_MS / 1000}s`,
    },
  });
  replicas = await bootReplicas(stack);
  owner = await newPartner(stack);
  // After every seed: the seed command loads the fixture's intakeUrl (null) again.
  await query('UPDATE lenders SET intake_url = $1 WHERE id = $2', [`${lender.url}/lender-a`, lenderA.id], stack);
  partnerVia = [owner.api, new ApiClient(replicas.gatewayUrl, owner.partner.key)];
  customerVia = [new ApiClient(stack.gatewayUrl), new ApiClient(replicas.gatewayUrl)];
  operatorVia = [await Ops.as('viewer', stack), await Ops.as('viewer', replicas)];
  // One endpoint registered through each gateway, both on the test's receiver.
  await registerEndpoint(partnerVia[0], `${hook.url}/${ENDPOINT_PATHS[0]}`);
  await registerEndpoint(partnerVia[1], `${hook.url}/${ENDPOINT_PATHS[1]}`);
  listener = await EventListener.start(stack);

  const started = Date.now();
  const journeysToRun = [
    ...Array.from({ length: FINANCED_JOURNEYS }, (_, index) => () => financedJourney(index)),
    ...Array.from({ length: ACCEPTED_JOURNEYS }, (_, index) => () => acceptedJourney(FINANCED_JOURNEYS + index)),
  ];
  await Promise.all([
    // The clock works on the unanswered offers while the journeys run.
    ...Array.from({ length: UNANSWERED_OFFERS }, (_, index) => unansweredOffer(FINANCED_JOURNEYS + ACCEPTED_JOURNEYS + index)),
    ...Array.from({ length: JOURNEYS_AT_ONCE }, async () => {
      for (let next = journeysToRun.shift(); next; next = journeysToRun.shift()) await next();
    }),
  ]);
  for (const journey of journeys) eventsByCase.set(journey.caseId, await eventsOf(journey.caseId, stack));
  const eventCount = [...eventsByCase.values()].reduce((sum, events) => sum + events.length, 0);
  await waitFor(() => (hook.requests.length >= ENDPOINT_PATHS.length * eventCount ? true : undefined), {
    timeoutMs: SLACK_MS,
    what: `${eventCount} webhooks per endpoint`,
  });
  await waitFor(() => (listener.received.length >= eventCount ? true : undefined), { timeoutMs: SLACK_MS, what: `${eventCount} events on the bus` });
  drivenMs = Date.now() - started;
  // Long enough for a third reminder, a second expiry or a redelivery, had one been possible.
  await new Promise((resolve) => setTimeout(resolve, REMINDER_AFTER_MS + 3000));
  mails = await mailOf(stack);
}, 300_000);

afterAll(async () => {
  await listener?.close();
  if (stack) await shutdownStack(stack);
  await Promise.all([lender?.close(), signing?.close(), hook?.close(), postgres?.dispose()]);
});

/** What each process of the two sets counted (admin port /metrics): who did the work, and that it adds up. */
async function workOf(name: ProcessName, metric: string, labels: Record<string, string> = {}): Promise<[number, number]> {
  const [first, second] = await Promise.all(
    [stack.portBase, replicas.portBase].map(async (portBase) =>
      sumOf(await scrapeMetrics(`http://127.0.0.1:${defaultAdminPort(name, portBase)}/metrics`), metric, labels),
    ),
  );
  return [first as number, second as number];
}

const total = ([first, second]: [number, number]) => first + second;
const allEvents = () => [...eventsByCase.values()].flat();
const journeysOf = (kind: Kind) => journeys.filter((journey) => journey.kind === kind);
const mailKey = (mail: ReceivedMail) => `${mail.to.join(',')}|${mail.subject}|${mail.text}`;

describe('when partner journeys, customers, lender and signing callbacks and the clock run through both gateways of two of every process', () => {
  it('then each case has its events once each, in the order of its journey, and the bus carried them once each in that order', () => {
    const expected: Record<Kind, string[]> = { financed: FINANCED_MOVES, accepted: ACCEPTED_MOVES, unanswered: UNANSWERED_MOVES };
    expect(journeys.map((journey) => journey.kind).sort()).toEqual([
      ...Array(ACCEPTED_JOURNEYS).fill('accepted'),
      ...Array(FINANCED_JOURNEYS).fill('financed'),
      ...Array(UNANSWERED_OFFERS).fill('unanswered'),
    ]);
    for (const journey of journeys) {
      const events = eventsByCase.get(journey.caseId) as StatusChangedEvent[];
      expect(events.map((event) => `${event.data.resourceType}:${event.data.transition}`)).toEqual(expected[journey.kind]);
      expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
      const times = events.map((event) => Date.parse(event.occurredAt));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(new Set(times).size).toBe(times.length);
      expect(listener.of(journey.caseId).map((event) => event.id)).toEqual(events.map((event) => event.id));
    }
    expect(listener.received).toHaveLength(allEvents().length);
  });

  it("then each of the partner's endpoints received every event exactly once, under its own id, with the body written", () => {
    for (const path of ENDPOINT_PATHS) {
      const requests = hook.requests.filter((request) => request.path === `/${path}`);
      const ids = requests.map((request) => String(request.headers['webhook-id']));
      expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
      expect([...ids].sort()).toEqual(
        allEvents()
          .map((event) => event.id)
          .sort(),
      );
      for (const event of allEvents()) {
        const request = requests.find((received) => received.headers['webhook-id'] === event.id);
        // Postgres keeps the outbox payload as jsonb (keys reordered): compare the parsed bodies.
        expect(JSON.parse(request!.rawBody.toString('utf8'))).toEqual(JSON.parse(expectedBody(event)));
      }
    }
    expect(hook.requests).toHaveLength(ENDPOINT_PATHS.length * allEvents().length);
  });

  it('then the lender got each case in finance review exactly once, the provider each envelope once, and every callback sent through both gateways at once was applied once', async () => {
    const financing = [...journeysOf('financed'), ...journeysOf('accepted')];
    for (const journey of financing) {
      const [application, ...more] = lender.about(journey.caseId);
      expect([application!.verified, application!.path, more.length]).toEqual([true, '/lender-a/applications', 0]);
      expect(signing.about(journey.caseId)).toHaveLength(1);
    }
    for (const journey of journeysOf('unanswered')) expect(lender.about(journey.caseId)).toEqual([]);
    expect([lender.requests.length, signing.requests.length]).toEqual([financing.length, financing.length]);
    expect(new Set(lender.requests.map((request) => request.body.data.applicationId)).size).toBe(financing.length);
    // Three callbacks per case (accepted, sent, signed), each through both gateways: all 204, one applied.
    expect(callbackAnswers).toEqual(Array(financing.length * 3 * 2).fill(204));
    const applied = await query<{ sender: string; count: number }>(
      'SELECT sender, count(*)::int AS count FROM applied_callbacks GROUP BY sender ORDER BY sender',
      [],
      stack,
    );
    expect(applied).toEqual([
      { sender: `lender:${lenderA.id}`, count: financing.length },
      { sender: 'signing', count: 2 * financing.length },
    ]);
    expect(total(await workOf('case-workflow', 'lender_submissions_total', { outcome: 'submitted' }))).toBe(financing.length);
    expect(total(await workOf('case-workflow', 'lender_submissions_total', { outcome: 'failed' }))).toBe(0);
  });

  it('then each unanswered offer got exactly the configured reminders and expired once, and every mail went out once', async () => {
    expect(new Set(mails.map(mailKey)).size).toBe(mails.length);
    // Subjects without the partner's name: `Your offer Q-… from <partner>`.
    const subjectsTo = (address: string) =>
      mails
        .filter((mail) => mail.to.includes(address))
        .map((mail) => mail.subject.replace(/ from .*$/, ''))
        .sort();
    for (const journey of journeysOf('unanswered')) {
      expect(subjectsTo(journey.email)).toEqual([
        ...Array(REMINDER_MAX).fill(`Reminder: your offer ${journey.quoteNumber}`),
        `Your offer ${journey.quoteNumber}`,
      ]);
      for (const api of partnerVia) expect((await quoteOf(api, journey.quoteId)).reminderCount).toBe(REMINDER_MAX);
    }
    for (const journey of journeysOf('accepted')) expect(subjectsTo(journey.email)).toEqual([`Your offer ${journey.quoteNumber}`]);
    // A checkout with submitFinancing mails the customer a view-only link.
    for (const journey of journeysOf('financed')) expect(subjectsTo(journey.email)).toEqual([`Your financing request ${journey.quoteNumber}`]);
    const partnerSubjects = mails
      .filter((mail) => !journeys.some((journey) => mail.to.includes(journey.email)))
      .map((mail) => mail.subject)
      .sort();
    expect(partnerSubjects).toEqual(
      [
        ...journeysOf('unanswered').map((journey) => `Offer ${journey.quoteNumber} expired`),
        ...[...journeysOf('financed'), ...journeysOf('accepted')].map((journey) => `Financing case ${journey.caseId}: accepted`),
      ].sort(),
    );
    const unanswered = journeysOf('unanswered').length;
    expect(total(await workOf('case-workflow', 'scheduler_effects_total', { kind: 'reminder' }))).toBe(REMINDER_MAX * unanswered);
    expect(total(await workOf('case-workflow', 'scheduler_effects_total', { kind: 'expiry' }))).toBe(unanswered);
    expect(total(await workOf('notifications', 'mail_finished_total', { status: 'sent' }))).toBe(mails.length);
  });

  it('then the back office of either set shows every case as its partner sees it', async () => {
    for (const journey of journeys) {
      const partnerView = (await partnerVia[0].get(`/api/financing_cases/${journey.caseId}`)).json.status;
      for (const operator of operatorVia) {
        const found = await operator.get(`/ops/v1/cases/${journey.caseId}`);
        expect([found.status, found.json.status]).toEqual([200, partnerView]);
      }
    }
  });

  it('then the work of the relays, deliveries and gateways adds up to once per event and request, shared by both sets', async () => {
    const events = allEvents().length;
    // The outbox holds the status events and the mails case-workflow asks notifications for.
    const [outbox] = await query<{ rows: number; unpublished: number }>(
      'SELECT count(*)::int AS rows, count(*) FILTER (WHERE published_at IS NULL)::int AS unpublished FROM outbox',
      [],
      stack,
    );
    const published = await workOf('case-workflow', 'outbox_published_messages_total');
    const delivered = await workOf('notifications', 'webhook_delivery_attempts_total', { outcome: 'succeeded' });
    expect([total(published), outbox!.unpublished, total(delivered)]).toEqual([outbox!.rows, 0, ENDPOINT_PATHS.length * events]);
    expect(total(await workOf('notifications', 'webhook_delivery_attempts_total', { outcome: 'failed' }))).toBe(0);
    const split: Record<string, [number, number]> = {
      'gateway requests': await workOf('gateway', 'http_request_duration_seconds_count'),
      'cart-checkout requests': await workOf('cart-checkout', 'http_request_duration_seconds_count'),
      'pricing gRPC calls': await workOf('pricing', 'grpc_server_call_duration_seconds_count'),
      'case-workflow requests': await workOf('case-workflow', 'http_request_duration_seconds_count'),
      'documents requests': await workOf('documents', 'http_request_duration_seconds_count'),
      'backoffice requests': await workOf('backoffice', 'http_request_duration_seconds_count'),
      'events published (relay)': published,
      'lender submissions': await workOf('case-workflow', 'lender_submissions_total', { outcome: 'submitted' }),
      'clock ticks run': await workOf('case-workflow', 'background_job_runs_total', { job: 'clock', outcome: 'succeeded' }),
      'webhooks delivered': delivered,
      'mails sent': await workOf('notifications', 'mail_finished_total', { status: 'sent' }),
    };
    // Every process of the second set served traffic of its own.
    for (const what of [
      'gateway requests',
      'cart-checkout requests',
      'pricing gRPC calls',
      'case-workflow requests',
      'documents requests',
      'backoffice requests',
    ])
      expect(split[what]![1]).toBeGreaterThan(0);
    process.stdout.write(
      `two of every process: ${journeys.length} cases, ${events} events, ${hook.requests.length} webhooks to ${ENDPOINT_PATHS.length} endpoints, ${mails.length} mails, ${lender.requests.length} applications, driven in ${drivenMs} ms\n${Object.entries(
        split,
      )
        .map(([what, [first, second]]) => `  ${what}: ${first} + ${second}`)
        .join('\n')}\n`,
    );
  });
});
