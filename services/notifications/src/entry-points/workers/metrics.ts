import { counter, histogram } from '@rental/metrics';

export const webhookAttempts = counter({
  name: 'webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts, by outcome',
  labelNames: ['outcome'] as const,
});

export const webhookAttemptDuration = histogram({
  name: 'webhook_delivery_attempt_duration_seconds',
  help: 'Time from sending a webhook to its answer (or the failure)',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

export const webhookDeliveryLag = histogram({
  name: 'webhook_delivery_lag_seconds',
  help: 'Time from the status change to its successful delivery, retries included',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 43200],
});

export const webhookScheduleLag = histogram({
  name: 'webhook_delivery_schedule_lag_seconds',
  help: "How late an attempt starts after it fell due (the delivery scheduler's lag)",
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
});

export const webhookDeliveriesFinished = counter({
  name: 'webhook_deliveries_finished_total',
  help: 'Deliveries that reached a final state, by status and drop reason',
  labelNames: ['status', 'reason'] as const,
});

export const mailsFinished = counter({
  name: 'mail_finished_total',
  help: 'Mails that reached a state: sent, logged, skipped, failed, or retried (pending)',
  labelNames: ['status'] as const,
});
