import type { Knex } from '@rental/db';
import type { MailNext } from '../domain/model';
import { WriteBatcher } from './write-batcher';

/** The two mail tables and what each records of a finished attempt beyond the queue's columns. */
const QUEUE_TABLES = {
  // Event mails: the address and subject the mail was resolved to.
  mail_log: { idType: 'bigint', ownColumns: ['to_address', 'subject'] },
  mail_requests: { idType: 'text', ownColumns: [] },
} as const;

type QueueTableName = keyof typeof QUEUE_TABLES;

const LEASE_UNTIL = 'now() + make_interval(secs => :leaseSeconds)';

/** What an attempt's outcome writes; `own` are the table's own columns (QUEUE_TABLES). */
interface MailCompletion {
  id: string;
  status: MailNext['status'];
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  [ownColumn: string]: unknown;
}

/**
 * The lease queue both mail tables share (mail_log for event mails, mail_requests for mails other
 * services ask for): due pending rows are leased for a while, so a crashed worker's rows come back.
 */
export class MailQueueTable {
  // The mails of one event, and of the events around it, finish together: one statement records them.
  private readonly completions: WriteBatcher<MailCompletion>;

  constructor(
    private readonly db: Knex,
    private readonly table: QueueTableName,
  ) {
    const statement = completeStatement(table);
    this.completions = new WriteBatcher(async (rows) => {
      await db.raw(statement, [JSON.stringify(rows)]);
    });
  }

  /**
   * Leases up to `limit` due rows and answers the `returning` columns of each; `join` adds
   * tables (with their condition) the answer reads from, aliasing the queue table as m.
   */
  async claimDue<Row>(limit: number, leaseMs: number, returning: string, join?: { from: string; where: string }): Promise<Row[]> {
    const result = await this.db.raw(
      `
UPDATE ${this.table} m
SET lease_expires_at = ${LEASE_UNTIL}
FROM (
  SELECT id FROM ${this.table}
  WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_expires_at IS NULL OR lease_expires_at < now())
  ORDER BY next_attempt_at, id
  LIMIT :limit
  FOR UPDATE SKIP LOCKED
) due${join ? `, ${join.from}` : ''}
WHERE m.id = due.id${join ? ` AND ${join.where}` : ''}
RETURNING ${returning}`,
      { limit, leaseSeconds: leaseMs / 1000 },
    );
    return result.rows as Row[];
  }

  /** The lease of a row written already leased (a mail handed to the worker as it is stored). */
  leaseFor(leaseMs: number): Knex.Raw {
    return this.db.raw(LEASE_UNTIL, { leaseSeconds: leaseMs / 1000 });
  }

  /** Records an attempt's outcome and gives up the lease; `own` fills the table's own columns. */
  complete(id: string, attempt: number, next: MailNext, own: Record<string, string | null> = {}): Promise<void> {
    return this.completions.add({
      id,
      status: next.status,
      attempts: attempt,
      last_error: 'error' in next ? next.error : 'reason' in next ? next.reason : null,
      next_attempt_at: next.status === 'pending' ? next.nextAttemptAt.toISOString() : null,
      ...own,
    });
  }

  async nextDueAt(): Promise<Date | undefined> {
    const row = await this.db(this.table).where({ status: 'pending' }).where('next_attempt_at', '>', this.db.fn.now()).min({ due: 'next_attempt_at' }).first();
    return row?.due ?? undefined;
  }
}

/**
 * The outcomes of a batch in one statement. The `id = ANY(ARRAY(…))` keeps the update on the
 * primary key, as the deliveries' completion does: a join with the input alone is guessed at 100
 * rows and may be planned as a scan of the table.
 */
function completeStatement(table: QueueTableName): string {
  const { idType, ownColumns } = QUEUE_TABLES[table];
  const ownTypes = ownColumns.map((column) => `, ${column} text`).join('');
  const ownSets = ownColumns.map((column) => `, ${column} = i.${column}`).join('');
  return `
WITH input AS (
  SELECT * FROM jsonb_to_recordset(CAST(? AS jsonb)) AS x(id ${idType}, status text, attempts integer, last_error text, next_attempt_at timestamptz${ownTypes})
)
UPDATE ${table} m
SET status = i.status, attempts = i.attempts, last_error = i.last_error, next_attempt_at = i.next_attempt_at, lease_expires_at = NULL,
    completed_at = CASE WHEN i.status = 'pending' THEN NULL ELSE now() END${ownSets}
FROM input i
WHERE m.id = ANY(ARRAY(SELECT id FROM input)) AND m.id = i.id`;
}
