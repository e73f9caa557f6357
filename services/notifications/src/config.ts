import { z } from 'zod';
import { booleanVariable, loadConfig, positiveIntegerVariable, urlVariable } from '@rental/config';
import { serviceVariables } from '@rental/service-host';

export const notificationsVariables = {
  ...serviceVariables,
  /** Allows http and loopback webhook URLs: tests, local use, or an operator's explicit choice in production (warned at start). */
  WEBHOOK_ALLOW_PRIVATE_URLS: booleanVariable(false),
  WEBHOOK_TIMEOUT_MS: positiveIntegerVariable(5000),
  /** Deliveries in flight at once across all endpoints. */
  WEBHOOK_CONCURRENCY: positiveIntegerVariable(64),
  /** Deliveries of one partner in flight at once (one endpoint gets half of it); unset: half of WEBHOOK_CONCURRENCY. */
  WEBHOOK_PARTNER_CONCURRENCY: z.coerce
    .number({ message: 'must be a positive integer' })
    .int('must be a positive integer')
    .positive('must be a positive integer')
    .optional(),
  /** Test events one partner may send per minute (POST …/test-event); 0 switches the limit off. */
  WEBHOOK_TEST_EVENTS_PER_MINUTE: z.coerce
    .number({ message: 'must be an integer of 0 or more' })
    .int('must be an integer of 0 or more')
    .nonnegative('must be an integer of 0 or more')
    .default(30),
  /** Redelivery requests (one event, or every dropped one since a time) one partner may send per minute; 0 switches the limit off. */
  WEBHOOK_REDELIVERIES_PER_MINUTE: z.coerce
    .number({ message: 'must be an integer of 0 or more' })
    .int('must be an integer of 0 or more')
    .nonnegative('must be an integer of 0 or more')
    .default(60),
  /** Every delivery records its attempt, and the event consumer must not wait behind them for a connection. */
  DB_POOL_MAX: positiveIntegerVariable(16),
  /** SMTP server for partner and financer mail; without it mail is only logged. */
  SMTP_URL: urlVariable(['smtp', 'smtps']).optional(),
  MAIL_FROM: z.string().min(3).default('Partner Rental API <no-reply@partner-rental.example>'),
};

export type NotificationsConfig = ReturnType<typeof loadNotificationsConfig>;

export function loadNotificationsConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(notificationsVariables, env);
  if (config.WEBHOOK_ALLOW_PRIVATE_URLS && config.API_ENVIRONMENT === 'production') {
    process.stderr.write("warning: WEBHOOK_ALLOW_PRIVATE_URLS is true in production: partners' webhooks may go to http and loopback addresses\n");
  }
  return config;
}
