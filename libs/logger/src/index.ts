import pino, { Logger } from 'pino';
import { REDACTED_PATHS, CENSORED, censorNestedSecrets } from './censor';
import { currentTrace } from './trace-context';

export type { Logger } from 'pino';

interface DatabaseErrorFields {
  code: string;
  severity?: string;
  routine?: string;
  schema?: string;
  table?: string;
  column?: string;
  constraint?: string;
}

/** A Postgres error as the driver raises it: a five-character SQLSTATE and a severity. */
function isDatabaseError(error: unknown): error is Error & DatabaseErrorFields {
  const fields = error as Partial<DatabaseErrorFields> | null;
  return error instanceof Error && typeof fields?.code === 'string' && /^[0-9A-Z]{5}$/.test(fields.code) && typeof fields.severity === 'string';
}

/**
 * Postgres puts the offending values in its message, detail and where ("invalid input syntax for
 * type integer: \"…\"", "Key (email)=(…) already exists"), that is request data; a log line
 * keeps the SQLSTATE and the names of what failed only.
 */
export function serializeError(error: unknown): unknown {
  if (!isDatabaseError(error)) return pino.stdSerializers.err(error as Error);
  const { code, severity, routine, schema, table, column, constraint } = error;
  return { type: error.constructor.name, message: `database error ${code}`, code, severity, routine, schema, table, column, constraint };
}

/**
 * Whether a logger has the trace fields bound already (a request's child logger has): read once
 * per logger, because pino rebuilds its bindings from JSON on every `bindings()` call.
 */
const boundTraceFields = new WeakMap<Logger, { traceId: boolean; requestId: boolean }>();
function traceFieldsBoundTo(logger: Logger): { traceId: boolean; requestId: boolean } {
  let bound = boundTraceFields.get(logger);
  if (!bound) {
    const bindings = logger.bindings();
    bound = { traceId: 'traceId' in bindings, requestId: 'requestId' in bindings };
    boundTraceFields.set(logger, bound);
  }
  return bound;
}

/** The longest a line waits in the process's buffer before it reaches standard output. */
export const LOG_FLUSH_INTERVAL_MS = 100;

/**
 * Lines are collected and written a few kilobytes at a time: one system call per line was a
 * tenth of the gateway's CPU and still 12–17 % of busy processes when written asynchronously.
 * A line waits at most LOG_FLUSH_INTERVAL_MS; writes are synchronous so that the exit handler
 * writes what is left in order, with no write of the thread pool still under way, on a graceful
 * stop (process.exit) and on a crash (an uncaught exception also emits 'exit'). Every logger of
 * the process shares this one buffer, so lines keep their order on standard output.
 */
const LOG_WRITE_MIN_BYTES = 8192;
let standardOutputDestination: ReturnType<typeof pino.destination> | undefined;
function standardOutput(): ReturnType<typeof pino.destination> {
  if (!standardOutputDestination) {
    const destination = pino.destination({ dest: 1, sync: true, minLength: LOG_WRITE_MIN_BYTES, periodicFlush: LOG_FLUSH_INTERVAL_MS });
    process.once('exit', () => destination.flushSync());
    standardOutputDestination = destination;
  }
  return standardOutputDestination;
}

export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino(
    {
      name: service,
      level,
      base: { service },
      // Secrets never reach a log line: API keys, webhook secrets, passwords and credentials are
      // censored at the top of a logged object and one level down (censor.ts).
      redact: { paths: REDACTED_PATHS, censor: CENSORED },
      serializers: { err: serializeError },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: censorNestedSecrets },
      // Every line written while a request, call, message or job is handled carries its trace id
      // and request id, so one id finds the work it caused in every process; what a logger has
      // bound already is not added twice.
      mixin: (_entry, _level, logger) => {
        const trace = currentTrace();
        if (!trace) return {};
        const bound = traceFieldsBoundTo(logger);
        const fields: { traceId?: string; requestId?: string } = {};
        if (!bound.traceId) fields.traceId = trace.traceId;
        if (trace.requestId && !bound.requestId) fields.requestId = trace.requestId;
        return fields;
      },
    },
    standardOutput(),
  );
}
export * from './trace-context';
