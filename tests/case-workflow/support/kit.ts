import { randomBytes } from 'node:crypto';
import { Bus } from '@rental/bus';
import { databaseNameOf } from '@rental/config';
import { createLogger } from '@rental/logger';
import { EVERY_STATUS_CHANGE_SUBJECT, STATUS_CHANGED_SUBJECT, StatusChangedEvent, statusChangeSubject } from '@rental/proto';
import { ApiClient, ApiResponse } from '@rental/testkit';
import { CaseOptions, createCaseViaGrpc } from '../../support/cases';
import { rows } from '../../support/database';
import { OwnPartner, ownPartner } from '../../support/partners';
import { StackAddress, apiAs, sharedStack } from '../../support/shared-stack';
import { problemTypeOf } from '../../support/problems';

export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A partner of its own (like acme), with an api_user client and a read-only client. */
export interface Owner extends OwnPartner {
  readOnly: ApiClient;
}

export async function newPartner(stack: StackAddress = sharedStack()): Promise<Owner> {
  const own = await ownPartner(stack);
  return { ...own, readOnly: new ApiClient(stack.gatewayUrl, own.partner.readOnlyKey) };
}

export async function newCase(owner: Owner, options: CaseOptions = {}, stack: StackAddress = sharedStack()): Promise<{ caseId: string; quoteId: string }> {
  const created = await createCaseViaGrpc(stack, owner.partner.id, options);
  return { caseId: created.financingCaseId, quoteId: created.quoteId };
}

/** Rows of the case_workflow schema. */
export function query<T = any>(sql: string, values: unknown[] = [], stack: StackAddress = sharedStack()): Promise<T[]> {
  return rows<T>(stack.databaseUrl, sql, values, 'case_workflow');
}

/** The events case-workflow wrote for a case, in the order written (its outbox). */
export async function eventsOf(caseId: string, stack: StackAddress = sharedStack()): Promise<StatusChangedEvent[]> {
  const rows = await query<{ payload: StatusChangedEvent }>(
    "SELECT payload FROM outbox WHERE payload->'data'->>'financingCaseId' = $1 ORDER BY id",
    [caseId],
    stack,
  );
  return rows.map((row) => row.payload);
}

/** The events as partners see a change: from, to, transition and resource. */
export async function movesOf(caseId: string, stack: StackAddress = sharedStack()): Promise<string[]> {
  return (await eventsOf(caseId, stack)).map(
    (event) => `${event.data.resourceType}:${event.data.fromStatus}>${event.data.toStatus}:${event.data.transition}:${event.data.status}`,
  );
}

export async function simulate(owner: Owner, caseId: string, scenario: string, data?: unknown): Promise<ApiResponse> {
  return owner.api.post(`/api/sandbox/financing_cases/${caseId}/simulate`, data === undefined ? { scenario } : { scenario, data });
}

export async function expectApplied(response: Promise<ApiResponse> | ApiResponse): Promise<void> {
  const answered = await response;
  expect([answered.status, answered.text]).toEqual([204, '']);
}

export function expectProblem(response: ApiResponse, status: number, code?: string, stack: StackAddress = sharedStack()): void {
  expect([response.status, response.contentType]).toEqual([status, 'application/problem+json; charset=utf-8']);
  expect(response.json).toEqual(expect.objectContaining({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String) }));
  if (code) expect(response.json.type).toBe(problemTypeOf(code, stack.gatewayUrl));
}

/** A 422 whose violations are exactly these (path, code) pairs. */
export function expectViolations(response: ApiResponse, violations: [string, string][]): void {
  expectProblem(response, 422);
  expect(response.json.violations.map((v: { propertyPath: string; code: string }) => [v.propertyPath, v.code])).toEqual(violations);
}

/** A subscriber of the stack's status events on NATS, with a durable consumer of its own. */
export class EventListener {
  readonly received: StatusChangedEvent[] = [];
  /** The request id each event's message carried, by event id. */
  readonly requestIds = new Map<string, string | undefined>();
  private constructor(private readonly bus: Bus) {}

  static async start(stack: StackAddress & { natsUrl?: string } = sharedStack()): Promise<EventListener> {
    const name = `case-workflow-test-${randomBytes(4).toString('hex')}`;
    const bus = new Bus({
      url: stack.natsUrl ?? process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      environment: stack.environment,
      databaseName: databaseNameOf(stack.databaseUrl),
      serviceName: name,
      log: createLogger(name, 'error'),
    });
    await bus.start();
    const listener = new EventListener(bus);
    bus.consume<StatusChangedEvent>({
      subject: EVERY_STATUS_CHANGE_SUBJECT,
      durable: name,
      handler: async ({ data, requestId }) => {
        listener.received.push(data);
        listener.requestIds.set(data.id, requestId);
      },
    });
    return listener;
  }

  of(caseId: string): StatusChangedEvent[] {
    // Other suites publish deliberately malformed events on the shared stream; those have no data.
    return this.received.filter((event) => event.data?.financingCaseId === caseId);
  }

  /** Publishes an event again the way the outbox relay does, with the given JetStream message id. */
  republish(event: StatusChangedEvent, messageId: string): Promise<void> {
    return this.bus.publish(statusChangeSubject(this.bus.subject(STATUS_CHANGED_SUBJECT), event.data), event, messageId);
  }

  close(): Promise<void> {
    return this.bus.close();
  }
}

export { apiAs, sharedStack };
