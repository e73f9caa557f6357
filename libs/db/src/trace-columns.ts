import type { Knex } from 'knex';

/** The widths of the trace context a row keeps: a request id of at most 128 characters, a W3C traceparent of 55. */
const WIDTHS = { request_id: 128, traceparent: 55 } as const;

export type TraceColumn = keyof typeof WIDTHS;

const BOTH: TraceColumn[] = ['request_id', 'traceparent'];

/**
 * Migration step: the request id and W3C traceparent of the work that wrote a row, so the work
 * that handles the row later (a relay, a worker, a consumer) logs under the same trace.
 */
export async function addTraceColumns(db: Knex, tableName: string, columns: TraceColumn[] = BOTH): Promise<void> {
  await db.schema.alterTable(tableName, (table) => {
    for (const column of columns) table.string(column, WIDTHS[column]);
  });
}

/** Migration step: undoes addTraceColumns. */
export async function dropTraceColumns(db: Knex, tableName: string, columns: TraceColumn[] = BOTH): Promise<void> {
  await db.schema.alterTable(tableName, (table) => {
    for (const column of columns) table.dropColumn(column);
  });
}
