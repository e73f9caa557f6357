import { type Knex, type HotStatement, runHot } from '@rental/db';
import { currentOrigin } from '@rental/logger';
import type { StatusChangedEvent } from '@rental/proto';
import type { AttemptRecord, ClaimOptions, DeliveryJob, DeliveryNext, DeliveryStore } from '../domain/delivery';
import type { DeliveryHistory, RedeliveryOutcome, TestEvent, RecipientRole, InboxResult } from '../domain/model';
import type { DeliveryHistoryReader, EventInbox, RedeliveryStore } from '../domain/ports';
import { WriteBatcher } from './write-batcher';

interface ClaimedRow {
  id: string;
  event_id: string;
  partner_id: string;
  attempts: number;
  attempts_before_redelivery: number;
  next_attempt_at: Date;
  request_id: string | null;
  traceparent: string | null;
  body: string;
  occurred_at: Date;
  endpoint_id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  active: boolean;
  deleted_at: Date | null;
}

/**
 * Deliveries due now, shared fairly: at most `perPartner` in flight per partner and `perEndpoint`
 * per endpoint (so one partner's slow endpoints cannot take every slot, nor one endpoint all of
 * its partner's), the partner with the fewest in flight first, and within a partner the endpoint
 * with the fewest (a turn counts what is in flight already). Endpoints and partners at their share
 * are skipped while scanning, and only the earliest due rows are ranked, so a long backlog costs
 * little. Claiming sets a lease instead of holding a lock, so no transaction stays open while a
 * partner's server thinks. The picked rows are locked by their ctid (a lock follows a row updated
 * meanwhile and checks it again) and updated by `id = ANY(ARRAY(…))`, so no plan can walk an
 * index once per row: as joins, trusting statistics taken while the table was small, the planner
 * walked the whole due index once per picked row.
 */
// Planned at every run (a generic plan does not know the LIMITs), never as a bitmap scan: that
// visits every entry completed deliveries left in the due index until vacuum, where an ordered
// index scan stops at the LIMIT and marks the dead entries it passes.
const CLAIM_DUE: HotStatement = {
  planner: { enable_bitmapscan: 'off' },
  text: `
WITH candidates AS (
  SELECT id, ctid, endpoint_id, partner_id, next_attempt_at FROM deliveries
  WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_expires_at IS NULL OR lease_expires_at < now())
    AND NOT (endpoint_id = ANY(CAST($1 AS text[]))) AND NOT (partner_id = ANY(CAST($2 AS text[])))
  ORDER BY next_attempt_at, id
  LIMIT $3
), endpoint_turns AS (
  SELECT id, ctid, partner_id, next_attempt_at,
    COALESCE((CAST($6 AS jsonb) ->> endpoint_id)::int, 0) + row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS endpoint_turn
  FROM candidates
), partner_turns AS (
  SELECT id, ctid, next_attempt_at, endpoint_turn,
    COALESCE((CAST($7 AS jsonb) ->> partner_id)::int, 0) + row_number() OVER (PARTITION BY partner_id ORDER BY endpoint_turn, next_attempt_at, id) AS partner_turn
  FROM endpoint_turns
  WHERE endpoint_turn <= $4
), picked AS (
  SELECT ctid FROM partner_turns
  WHERE partner_turn <= $5
  ORDER BY partner_turn, endpoint_turn, next_attempt_at, id
  LIMIT $8
), locked AS (
  SELECT id FROM deliveries
  WHERE ctid = ANY(ARRAY(SELECT ctid FROM picked)) AND status = 'pending' AND (lease_expires_at IS NULL OR lease_expires_at < now())
  FOR UPDATE SKIP LOCKED
)
UPDATE deliveries d
SET lease_expires_at = now() + make_interval(secs => $9)
FROM event_inbox e, webhook_endpoints w
WHERE d.id = ANY(ARRAY(SELECT id FROM locked)) AND e.id = d.event_id AND w.id = d.endpoint_id
RETURNING d.id, d.event_id, d.partner_id, d.attempts, d.attempts_before_redelivery, d.next_attempt_at, e.request_id, e.traceparent, e.body, e.occurred_at, w.id AS endpoint_id, w.url, w.secret,
  CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret END AS previous_secret, w.active, w.deleted_at`,
};

/**
 * The event, one pending delivery per active endpoint of its partner and its queued mail, in
 * one statement (so one transaction and one round trip); a known event id inserts nothing.
 */
const RECORD_EVENT: HotStatement = {
  name: 'notifications_record_event',
  text: `
WITH inbox AS (
  INSERT INTO event_inbox (id, partner_id, environment, event, body, occurred_at, request_id, traceparent)
  VALUES ($1, $2, $3, $4, $5, CAST($6 AS timestamptz), $7, $8)
  ON CONFLICT (id) DO NOTHING
  RETURNING id, partner_id
), fan_out AS (
  INSERT INTO deliveries (event_id, endpoint_id, partner_id, status, attempts, next_attempt_at)
  SELECT inbox.id, w.id, w.partner_id, 'pending', 0, now()
  FROM inbox JOIN webhook_endpoints w ON w.partner_id = inbox.partner_id AND w.active AND w.deleted_at IS NULL
  RETURNING 1
), mail AS (
  INSERT INTO mail_log (event_id, partner_id, recipient_role, status, next_attempt_at)
  SELECT inbox.id, inbox.partner_id, role, 'pending', now() FROM inbox CROSS JOIN unnest(CAST($9 AS text[])) AS role
  RETURNING 1
)
SELECT (SELECT count(*) FROM inbox)::int AS stored, (SELECT count(*) FROM fan_out)::int AS deliveries, (SELECT count(*) FROM mail)::int AS mails`,
};

/**
 * Attempts and the deliveries' next states of a batch, in one statement: all or nothing. The
 * `id = ANY(ARRAY(…))` keeps the update on the primary key: a join with the input alone, guessed
 * at 100 rows, was planned as a scan of the whole table.
 */
const COMPLETE: HotStatement = {
  // Unnamed: a generic plan made while the table was small kept scanning it as it grew.
  text: `
WITH input AS (
  SELECT * FROM jsonb_to_recordset(CAST($1 AS jsonb)) AS x(
    delivery_id bigint, recorded boolean, attempt integer, started_at timestamptz, duration_ms integer, status_code integer,
    succeeded boolean, error text, status text, drop_reason text, next_attempt_at timestamptz)
), attempts AS (
  INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, status_code, succeeded, error)
  SELECT delivery_id, attempt, started_at, duration_ms, status_code, succeeded, error FROM input WHERE recorded
  ON CONFLICT (delivery_id, attempt) DO NOTHING
)
-- A delivery dropped while its attempt was on the wire (endpoint paused or deleted) stays
-- dropped unless that attempt succeeded: resuming must not bring a retry back.
UPDATE deliveries d
SET status = CASE WHEN d.status = 'pending' OR i.status = 'succeeded' THEN i.status ELSE d.status END,
    drop_reason = CASE WHEN d.status = 'pending' OR i.status = 'succeeded' THEN i.drop_reason ELSE d.drop_reason END,
    next_attempt_at = CASE WHEN d.status = 'pending' THEN i.next_attempt_at ELSE NULL END,
    completed_at = CASE WHEN d.status = 'pending' OR i.status = 'succeeded' THEN (CASE WHEN i.status = 'pending' THEN NULL ELSE now() END) ELSE d.completed_at END,
    lease_expires_at = NULL,
    attempts = d.attempts + (CASE WHEN i.recorded THEN 1 ELSE 0 END)
FROM input i
WHERE d.id = ANY(ARRAY(SELECT delivery_id FROM input)) AND d.id = i.delivery_id`,
};

interface Completion {
  delivery_id: string;
  recorded: boolean;
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  succeeded: boolean;
  error: string | null;
  status: DeliveryNext['status'];
  drop_reason: string | null;
  next_attempt_at: string | null;
}

const INBOX_RETENTION_DAYS = 30;

interface HistoryRow {
  id: string;
  event_id: string;
  status: DeliveryHistory['status'];
  drop_reason: string | null;
  attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
  completed_at: Date | null;
  occurred_at: Date;
  event: string;
}

export class DeliveryRepository implements EventInbox, DeliveryStore, DeliveryHistoryReader, RedeliveryStore {
  // Many attempts finish at once under load; recording them together saves a round trip each.
  private readonly completions = new WriteBatcher<Completion>(async (rows) => {
    await runHot(this.db, COMPLETE, [JSON.stringify(rows)]);
  });

  constructor(private readonly db: Knex) {}

  async record(event: StatusChangedEvent, body: string, mailTo: RecipientRole[]): Promise<InboxResult> {
    // The consumer handles the event in the trace of the request that caused it.
    const origin = currentOrigin();
    const [row] = await runHot<{ stored: number; deliveries: number }>(this.db, RECORD_EVENT, [
      event.id,
      event.partnerId,
      event.environment,
      JSON.stringify(event),
      body,
      event.occurredAt,
      origin.requestId,
      origin.traceparent,
      mailTo,
    ]);
    return { stored: row!.stored > 0, deliveries: row!.deliveries };
  }

  async claimDue(options: ClaimOptions): Promise<DeliveryJob[]> {
    const atShare = (inFlight: ReadonlyMap<string, number>, share: number) => [...inFlight].filter(([, count]) => count >= share).map(([id]) => id);
    const rows = await runHot<ClaimedRow>(this.db, CLAIM_DUE, [
      atShare(options.endpointsInFlight, options.perEndpoint),
      atShare(options.partnersInFlight, options.perPartner),
      Math.max(options.limit * 4, 200),
      options.perEndpoint,
      options.perPartner,
      JSON.stringify(Object.fromEntries(options.endpointsInFlight)),
      JSON.stringify(Object.fromEntries(options.partnersInFlight)),
      options.limit,
      options.leaseMs / 1000,
    ]);
    return rows.map((row) => ({
      deliveryId: String(row.id),
      eventId: row.event_id,
      attempt: row.attempts + 1,
      attemptsBeforeRedelivery: row.attempts_before_redelivery,
      dueAt: row.next_attempt_at,
      requestId: row.request_id,
      traceparent: row.traceparent,
      body: row.body,
      occurredAt: row.occurred_at,
      partnerId: row.partner_id,
      endpoint: {
        id: row.endpoint_id,
        url: row.url,
        secret: row.secret,
        ...(row.previous_secret ? { previousSecret: row.previous_secret } : {}),
        active: row.active,
        deleted: row.deleted_at !== null,
      },
    }));
  }

  complete(job: DeliveryJob, attempt: AttemptRecord | undefined, next: DeliveryNext): Promise<void> {
    return this.completions.add({
      delivery_id: job.deliveryId,
      recorded: attempt !== undefined,
      attempt: attempt?.attempt ?? job.attempt,
      started_at: (attempt?.startedAt ?? new Date()).toISOString(),
      duration_ms: attempt?.durationMs ?? 0,
      status_code: attempt?.statusCode ?? null,
      succeeded: attempt?.succeeded ?? false,
      error: attempt?.error ?? null,
      status: next.status,
      drop_reason: next.status === 'dropped' ? next.reason : null,
      next_attempt_at: next.status === 'pending' ? next.nextAttemptAt.toISOString() : null,
    });
  }

  /** The next scheduled retry; what is due already is claimed, or waits for a busy endpoint or an expired lease. */
  async nextDueAt(): Promise<Date | undefined> {
    const row = await this.db('deliveries')
      .where({ status: 'pending' })
      .where('next_attempt_at', '>', this.db.fn.now())
      .min({ due: 'next_attempt_at' })
      .first();
    return row?.due ?? undefined;
  }

  history(partnerId: string, endpointId: string, limit: number, offset: number): Promise<DeliveryHistory[]> {
    return this.deliveries(this.db, partnerId, endpointId, (query) => query.limit(limit).offset(offset));
  }

  /**
   * The delivery answered is read in the transaction that queued it: the worker's claim skips the
   * locked row until the commit, so the answer is the delivery as queued, never already attempted.
   */
  redeliver(partnerId: string, endpointId: string, eventId: string): Promise<RedeliveryOutcome> {
    return this.db.transaction(async (trx) => {
      const scope = { partner_id: partnerId, endpoint_id: endpointId, event_id: eventId };
      const updated = await trx('deliveries').where(scope).whereNot({ status: 'pending' }).update(this.requeued());
      if (updated > 0) return { status: 'queued', delivery: await this.deliveryOf(trx, partnerId, endpointId, eventId) };
      return { status: (await trx('deliveries').where(scope).first('id')) ? 'still_pending' : 'unknown' };
    });
  }

  redeliverDroppedSince(partnerId: string, endpointId: string, since: Date): Promise<number> {
    return this.db('deliveries')
      .where({ partner_id: partnerId, endpoint_id: endpointId, status: 'dropped' })
      .where('created_at', '>=', since)
      .update(this.requeued());
  }

  /** Read back in its transaction, like a redelivery, so the answer is the delivery before any attempt. */
  queueTestEvent(endpointId: string, event: TestEvent): Promise<DeliveryHistory> {
    return this.db.transaction(async (trx) => {
      const origin = currentOrigin();
      await trx('event_inbox').insert({
        id: event.id,
        partner_id: event.partnerId,
        environment: event.environment,
        event: event.event,
        body: event.body,
        occurred_at: event.occurredAt,
        request_id: origin.requestId,
        traceparent: origin.traceparent,
      });
      await trx('deliveries').insert({
        event_id: event.id,
        endpoint_id: endpointId,
        partner_id: event.partnerId,
        status: 'pending',
        attempts: 0,
        next_attempt_at: trx.fn.now(),
      });
      return this.deliveryOf(trx, event.partnerId, endpointId, event.id);
    });
  }

  /** Back to pending like a new delivery: the attempts so far stay, the retry schedule starts again after them. */
  private requeued() {
    return {
      status: 'pending',
      drop_reason: null,
      next_attempt_at: this.db.fn.now(),
      completed_at: null,
      lease_expires_at: null,
      attempts_before_redelivery: this.db.raw('??', ['attempts']),
    };
  }

  /** The delivery the caller's transaction just wrote. */
  private async deliveryOf(trx: Knex.Transaction, partnerId: string, endpointId: string, eventId: string): Promise<DeliveryHistory> {
    const [written] = await this.deliveries(trx, partnerId, endpointId, (query) => query.where({ 'd.event_id': eventId }));
    return written!;
  }

  private async deliveries(
    db: Knex | Knex.Transaction,
    partnerId: string,
    endpointId: string,
    narrow: (query: Knex.QueryBuilder) => Knex.QueryBuilder,
  ): Promise<DeliveryHistory[]> {
    const deliveries: HistoryRow[] = await narrow(
      db('deliveries as d')
        .join('event_inbox as e', 'e.id', 'd.event_id')
        .select(
          'd.id',
          'd.event_id',
          'd.status',
          'd.drop_reason',
          'd.attempts',
          'd.next_attempt_at',
          'd.created_at',
          'd.completed_at',
          'e.occurred_at',
          'e.event',
        )
        .where({ 'd.endpoint_id': endpointId, 'd.partner_id': partnerId })
        .orderBy([
          { column: 'd.created_at', order: 'desc' },
          { column: 'd.id', order: 'desc' },
        ]),
    );
    if (deliveries.length === 0) return [];
    const attempts = await db('delivery_attempts')
      .whereIn(
        'delivery_id',
        deliveries.map((row) => row.id),
      )
      .orderBy([{ column: 'delivery_id' }, { column: 'attempt' }]);
    return deliveries.map((row) => ({
      eventId: row.event_id,
      event: (JSON.parse(row.event) as { event: string }).event,
      status: row.status,
      dropReason: row.drop_reason,
      attemptCount: row.attempts,
      nextAttemptAt: row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
      createdAt: row.created_at.toISOString(),
      completedAt: row.completed_at ? row.completed_at.toISOString() : null,
      occurredAt: row.occurred_at.toISOString(),
      // Only the attempts the delivery row counts: a worker may record one between the two reads,
      // and an answer that says "pending, 0 attempts" must not list it.
      attempts: attempts
        .filter((attempt) => String(attempt.delivery_id) === String(row.id) && attempt.attempt <= row.attempts)
        .map((attempt) => ({
          attempt: attempt.attempt,
          attemptedAt: attempt.started_at.toISOString(),
          statusCode: attempt.status_code,
          durationMs: attempt.duration_ms,
          succeeded: attempt.succeeded,
          error: attempt.error,
        })),
    }));
  }

  /**
   * At most `limit` of the events older than the retention go, oldest first, with their
   * deliveries, attempts and mail log (the cascades): one short statement of its own, so a large
   * backlog never holds its locks and dead rows in one long transaction (issue 34).
   */
  async removeOldEvents(limit: number): Promise<number> {
    const oldest = this.db('event_inbox')
      .where('received_at', '<', this.db.raw(`now() - interval '${INBOX_RETENTION_DAYS} days'`))
      .orderBy('received_at')
      .limit(limit)
      .select('id');
    return this.db('event_inbox').whereIn('id', oldest).delete();
  }
}
