import fs from 'node:fs';
import path from 'node:path';
import { SERVICE_NAMES, defaultAdminPort } from '@rental/config';
import { sharedStack } from '../support/shared-stack';

// The alerts of docs/operations.md must query metrics the processes really export: an alert on a
// misspelt or removed metric never fires.

const runbook = fs.readFileSync(path.resolve(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
const PROMQL_WORDS = new Set([
  'sum',
  'max',
  'min',
  'avg',
  'count',
  'rate',
  'increase',
  'irate',
  'histogram_quantile',
  'by',
  'without',
  'and',
  'or',
  'unless',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'le',
  'offset',
  'bool',
]);

/** Metric names of a PromQL expression: identifiers that are not functions, keywords or label names. */
function metricNames(expression: string): string[] {
  const withoutSelectors = expression.replace(/\{[^}]*\}/g, ' ').replace(/\[[^\]]*\]/g, ' ');
  const withoutGrouping = withoutSelectors.replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ');
  return [...withoutGrouping.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((match) => match[0]).filter((word) => !PROMQL_WORDS.has(word));
}

async function exportedFamilies(): Promise<Set<string>> {
  const urls = (['gateway', ...SERVICE_NAMES] as const).map((name) => `http://127.0.0.1:${defaultAdminPort(name, sharedStack().portBase)}/metrics`);
  const texts = await Promise.all(
    urls.map(async (url) => {
      const response = await fetch(url);
      expect([url, response.status]).toEqual([url, 200]);
      return response.text();
    }),
  );
  return new Set(
    texts.flatMap((text) =>
      [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(([, name, type]) =>
        type === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name!],
      ),
    ),
  );
}

describe('the alert runbook', () => {
  const expressions = [...runbook.matchAll(/```promql\n([\s\S]*?)```/g)].map((match) => match[1]!.trim());

  it('when its alerts are listed, then outbox backlog, delivery failures, lender submissions, scheduler lag and the 5xx rate each have a section with PromQL', () => {
    const sections = [...runbook.matchAll(/^### (\w+):/gm)].map((match) => match[1]);
    expect(sections).toEqual(['OutboxBacklog', 'WebhookDeliveryFailures', 'LenderSubmissionsFailing', 'SchedulerLag', 'GatewayErrorRate']);
    expect(expressions.length).toBeGreaterThanOrEqual(sections.length);
  });

  it("when every metric its PromQL names is looked up in the processes' /metrics, then each one exists", async () => {
    const families = await exportedFamilies();
    const named = [...new Set(expressions.flatMap(metricNames))];

    expect(named).toEqual(
      expect.arrayContaining([
        'outbox_backlog_messages',
        'outbox_oldest_unpublished_age_seconds',
        'webhook_delivery_attempts_total',
        'lender_submissions_total',
        'webhook_delivery_schedule_lag_seconds_bucket',
        'http_request_duration_seconds_count',
      ]),
    );
    expect(named.filter((name) => !families.has(name))).toEqual([]);
  });
});
