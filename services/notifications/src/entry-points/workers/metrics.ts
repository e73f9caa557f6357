import { Counter, Histogram, registry } from '@rental/metrics';

export const webhookAttempts = new Counter({
  name: 'webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts, by outcome',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const webhookAttemptDuration = new Histogram({
  name: 'webhook_delivery_attempt_duration_seconds',
  help: 'Time from sending a webhook to its answer (or the failure)',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const webhookDeliveryLag = new Histogram({
  name: 'webhook_delivery_lag_seconds',
  help: 'Time from the status change to its successful delivery, retries included',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 43200],
  registers: [registry],
});

export const webhookScheduleLag = new Histogram({
  name: 'webhook_delivery_schedule_lag_seconds',
  help: 'How late an attempt starts after it fell due (the delivery scheduler\'s lag)',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [registry],
});

export const webhookDeliveriesFinished = new Counter({
  name: 'webhook_deliveries_finished_total',
  help: 'Deliveries that reached a final state, by status and drop reason',
  labelNames: ['status', 'reason'] as const,
  registers: [registry],
});

export const mailsFinished = new Counter({
  name: 'mail_finished_total',
  help: 'Mails that reached a state: sent, logged, skipped, failed, or retried (pending)',
  labelNames: ['status'] as const,
  registers: [registry],
});
