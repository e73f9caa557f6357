import { defaultAdminPort } from '@rental/config';
import { Stack, shutdownStack, waitFor } from '@rental/testkit';
import { rows } from '../support/database';
import { scrapeMetrics, sumOf } from '../support/metrics';
import { bootOwnStack } from './support';

// Stops notifications to plant a backlog its cleanup finds at start, so it runs on a stack of its own.
let stack: Stack;

beforeAll(async () => {
  stack = await bootOwnStack();
}, 120_000);

afterAll(async () => {
  await shutdownStack(stack);
});

const inNotifications = <T>(sql: string) => rows<T>(stack.databaseUrl, sql, [], 'notifications');

describe('the inbox cleanup', () => {
  it('when 12,001 events are past the retention, then they go with their mail log in three statements of at most 5,000, and younger events stay', async () => {
    const notifications = stack.processes.notifications;
    await notifications.stop();
    await inNotifications(`
      INSERT INTO event_inbox (id, partner_id, environment, event, body, occurred_at, received_at)
      SELECT 'old-' || i, 'acme', 'sandbox', '{}', '{}', now() - interval '40 days', now() - interval '40 days' + i * interval '1 second'
      FROM generate_series(1, 12001) AS i`);
    await inNotifications(`
      INSERT INTO event_inbox (id, partner_id, environment, event, body, occurred_at, received_at)
      SELECT 'young-' || i, 'acme', 'sandbox', '{}', '{}', now() - interval '29 days', now() - interval '29 days'
      FROM generate_series(1, 10) AS i`);
    await inNotifications(`
      INSERT INTO mail_log (event_id, partner_id, recipient_role, status)
      SELECT id, 'acme', 'partner', 'sent' FROM event_inbox WHERE id LIKE 'old-%' OR id LIKE 'young-%'`);

    notifications.start();
    await notifications.waitReady();
    const metricsUrl = `http://127.0.0.1:${defaultAdminPort('notifications', stack.portBase)}/metrics`;
    // Rounds of the job since the start: the first three remove 5,000, 5,000 and 2,001 events.
    const rounds = await waitFor(
      async () => {
        const succeeded = sumOf(await scrapeMetrics(metricsUrl), 'background_job_runs_total', { job: 'inbox-cleanup', outcome: 'succeeded' });
        return succeeded >= 3 ? succeeded : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100, what: 'three rounds of the inbox cleanup' },
    );
    expect(rounds).toBe(3);

    const [left] = await inNotifications<{ old: string; young: string; mails: string }>(`
      SELECT count(*) FILTER (WHERE id LIKE 'old-%') AS old, count(*) FILTER (WHERE id LIKE 'young-%') AS young,
             (SELECT count(*) FROM mail_log WHERE event_id LIKE 'old-%' OR event_id LIKE 'young-%') AS mails
      FROM event_inbox`);
    expect(left).toEqual({ old: '0', young: '10', mails: '10' });
  }, 90_000);
});
