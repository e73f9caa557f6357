import pino, { Logger } from 'pino';
import { currentRequestId } from './request-scope';

export type { Logger } from 'pino';

/**
 * Secrets never reach a log line: API keys, webhook secrets and credentials are censored
 * wherever they appear in a logged object.
 */
const REDACTED_PATHS = [
  'apiKey', '*.apiKey', 'key', '*.key', 'secret', '*.secret', 'password', '*.password',
  'headers["x-api-key"]', '*.headers["x-api-key"]', 'headers.authorization', '*.headers.authorization',
  'secretKey', '*.secretKey', 'accessKey', '*.accessKey',
];

export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Every line written while a request, call or event is handled carries its id, so one id
    // finds the work it caused in every process; a logger that has it bound already adds nothing.
    mixin: (_entry, _level, logger) => {
      const requestId = currentRequestId();
      return requestId && !('requestId' in logger.bindings()) ? { requestId } : {};
    },
  });
}
export { currentRequestId, withRequestId } from './request-scope';
