/**
 * A timestamptz expression printed as Date#toISOString prints it (UTC, milliseconds, `Z`), for
 * JSON that Postgres builds in place of objects the services would print: to_char's MS drops
 * the microseconds as node-postgres does when it reads the value into a Date.
 */
export const isoTimestampSql = (expression: string) => `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
