import { createHmac, randomUUID } from 'node:crypto';
import { Bus } from '@rental/bus';
import { databaseNameOf } from '@rental/config';
import { createLogger } from '@rental/logger';
import { STATUS_CHANGED_EVENT, STATUS_CHANGED_SUBJECT, StatusChangedEvent, statusChangeSubject } from '@rental/proto';
import { ApiClient, BootOptions, ReceivedRequest, Stack, WebhookReceiver, bootStack, waitFor } from '@rental/testkit';
import { rows } from '../support/database';

export interface StackAddress {
  databaseUrl: string;
  environment: string;
}

/**
 * Publishes status changes on a stack's stream the way case-workflow's outbox relay does
 * (subject under the stack's prefix, event id as message id), so delivery is tested without
 * depending on case-workflow.
 */
export class EventPublisher {
  private constructor(
    private readonly bus: Bus,
    private readonly environment: string,
  ) {}

  static async connect(stack: StackAddress): Promise<EventPublisher> {
    const bus = new Bus({
      url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      environment: stack.environment,
      databaseName: databaseNameOf(stack.databaseUrl),
      serviceName: `notifications-test-${randomUUID().slice(0, 8)}`,
      log: createLogger('notifications-test', 'warn'),
    });
    await bus.start();
    return new EventPublisher(bus, stack.environment);
  }

  /** A status-change event of the partner, with a fresh id unless one is given. */
  event(partnerId: string, data: Partial<StatusChangedEvent['data']> = {}, id: string = randomUUID()): StatusChangedEvent {
    return {
      id,
      event: STATUS_CHANGED_EVENT,
      occurredAt: new Date().toISOString(),
      version: 1,
      data: {
        financingCaseId: `CASE${randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()}`,
        quoteId: `QUOTE${randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()}`,
        resourceType: 'quote',
        fromStatus: 'finance_review',
        toStatus: 'finance_questions',
        status: 'finance_questions',
        transition: 'finance_question',
        ...data,
      },
      partnerId,
      environment: this.environment,
    };
  }

  /**
   * Publishes a message as is on a status change's subject (by default one no valid event has);
   * `messageId` defaults to a new id (a second publish inside the duplicate window is dropped by JetStream).
   */
  async publishRaw(message: unknown, messageId: string = randomUUID(), change = { resourceType: 'unreadable', transition: 'message' }): Promise<void> {
    await this.bus.publish(statusChangeSubject(this.bus.subject(STATUS_CHANGED_SUBJECT), change), message, messageId);
  }

  /** Publishes an event as case-workflow's outbox relay does, on its transition's subject. */
  async publish(event: StatusChangedEvent, messageId: string = event.id): Promise<StatusChangedEvent> {
    await this.publishRaw(event, messageId, event.data);
    return event;
  }

  close(): Promise<void> {
    return this.bus.close();
  }
}

/** The webhook body a partner receives for an event: the envelope without the routing members. */
export function expectedBody(event: StatusChangedEvent): string {
  const { partnerId: _partnerId, environment: _environment, ...body } = event;
  return JSON.stringify(body);
}

export function hmacBase64(secret: string, raw: Buffer): string {
  return createHmac('sha256', secret).update(raw).digest('base64');
}

export interface RegisteredEndpoint {
  id: string;
  secret: string;
  url: string;
}

/** A Standard Webhooks secret as an endpoint shows it: whsec_ and 32 bytes in base64. */
export const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
/** A time as the API writes it: ISO 8601 in UTC, with milliseconds. */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * A webhook endpoint as the partner API and the portal show it: its `@id` and `@type` follow from
 * its id; `fields` are the rest a test expects (and may replace `id` with a matcher).
 */
export function endpointView(id: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { '@id': `/api/webhook_endpoints/${id}`, '@type': 'WebhookEndpoint', id, ...fields };
}

/** A webhook endpoint as its creation answers it (the API's and the portal's): active, a ULID, its creation time and its secret, shown this once. */
export function createdEndpointView(id: string, url: string): Record<string, unknown> {
  return endpointView(id, {
    id: expect.stringMatching(ULID),
    url,
    active: true,
    secret: expect.stringMatching(WEBHOOK_SECRET),
    createdAt: expect.stringMatching(ISO_TIME),
  });
}

export async function registerEndpoint(api: ApiClient, url: string, active = true): Promise<RegisteredEndpoint> {
  const response = await api.post('/api/webhook_endpoints', { url, active });
  if (response.status !== 201) throw new Error(`registering ${url} gave ${response.status}: ${response.text}`);
  return { id: response.json.id, secret: response.json.secret, url };
}

/** Requests of the receiver that carry this event id (as webhook-id). */
export function requestsFor(receiver: WebhookReceiver, eventId: string): ReceivedRequest[] {
  return receiver.requests.filter((request) => request.headers['webhook-id'] === eventId);
}

export function waitForRequests(receiver: WebhookReceiver, eventId: string, count: number, timeoutMs = 15_000): Promise<ReceivedRequest[]> {
  return waitFor(
    () => {
      const requests = requestsFor(receiver, eventId);
      return requests.length >= count ? requests : undefined;
    },
    { timeoutMs, intervalMs: 25, what: `${count} request(s) for event ${eventId}` },
  );
}

export async function waitForDelivery(api: ApiClient, endpointId: string, eventId: string, status: 'succeeded' | 'dropped', timeoutMs = 15_000): Promise<any> {
  return waitFor(
    async () => {
      const response = await api.get(`/api/webhook_endpoints/${endpointId}/deliveries`);
      const delivery = response.json?.find?.((entry: { eventId: string }) => entry.eventId === eventId);
      return delivery?.status === status ? delivery : undefined;
    },
    { timeoutMs, intervalMs: 100, what: `delivery of ${eventId} to be ${status}` },
  );
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A stack of the test's own. The test kit picks a free port range at random; another stack on
 * the machine (or an ephemeral port) can take a port of it before the processes listen, so one
 * failed start is tried once more on another range.
 */
export async function bootOwnStack(options: BootOptions = {}): Promise<Stack> {
  try {
    return await bootStack(options);
  } catch (error) {
    if (!/exited during start|EADDRINUSE/.test(String(error))) throw error;
    return bootStack(options);
  }
}

/** What case-workflow wrote to its outbox for a case: the events its partner must receive. */
export async function outboxEvents(databaseUrl: string, caseId: string): Promise<StatusChangedEvent[]> {
  const written = await rows<{ payload: StatusChangedEvent }>(
    databaseUrl,
    "SELECT payload FROM case_workflow.outbox WHERE payload->'data'->>'financingCaseId' = $1 ORDER BY id",
    [caseId],
  );
  return written.map((row) => row.payload);
}

/**
 * The event publisher and the webhook receivers of a test file: connected before its tests,
 * closed after them. `stack` is read in beforeAll, so a file booting its own stack declares that
 * beforeAll first (and its shutdown afterAll after this call).
 */
export function deliveryFixture(stack: () => StackAddress): { readonly publisher: EventPublisher; receiver(): Promise<WebhookReceiver> } {
  let publisher: EventPublisher | undefined;
  const receivers: WebhookReceiver[] = [];
  beforeAll(async () => {
    publisher = await EventPublisher.connect(stack());
  });
  afterAll(async () => {
    await publisher?.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });
  return {
    get publisher() {
      if (!publisher) throw new Error('the publisher connects in beforeAll');
      return publisher;
    },
    async receiver() {
      const started = await WebhookReceiver.start();
      receivers.push(started);
      return started;
    },
  };
}
