import { LENDER_ROWS } from './lender-submissions';
import type { SummaryRow } from './report';

// The performance targets of issues 18 and 31, with the figures they were set against and this
// run's, read from the rows and facts `npm run bench` recorded.

/** Facts a benchmark records beside its rows (Recorder.facts). */
export const FACTS = {
  gatewayAddedP50Micros: 'gateway.addedP50Micros',
  nginxAddedP50Micros: 'gateway.nginxAddedP50Micros',
  stackCpuMsPerJourney: 'journey.stackCpuMsPerJourney',
  journeySeconds: 'journey.seconds',
  processesThatGrew: 'journey.processesThatGrew',
  clockTickMs: 'scheduler.tickMs',
  clockTickReminders: 'scheduler.tickReminders',
} as const;

interface Target {
  path: string;
  today: string;
  target: string;
  /** This run's figure, the reference of this run (if any) and whether the target holds; undefined when the rows are missing. */
  measure(find: (label: string) => SummaryRow | undefined, facts: Record<string, number>): { now: string; reference: string; met: boolean } | undefined;
}

/** The rows' label of a turn of rate limits on and off after the first (bench/src/gateway.ts). */
export const turnLabel = (turn: number) => (turn === 1 ? '' : `, turn ${turn}`);

const ratio = (row: SummaryRow, direct: SummaryRow) => row.requestsPerSecond / direct.requestsPerSecond;
const times = (value: number) => `${value.toFixed(2)}×`;
const perRequest = (row: SummaryRow, process: string) => (row.cpuMs?.[process] ?? 0) / Math.max(1, row.requests);

/** The saturated rows of one route: direct, through the gateway, and nginx for reference. */
function proxiedRows(find: (label: string) => SummaryRow | undefined, route: string, direct: string) {
  return {
    direct: find(`${route}, ${direct} (saturated)`),
    gateway: find(`${route}, through the gateway (saturated)`),
    nginx: find(`${route}, nginx for reference (saturated)`),
  };
}

/**
 * A target read from one row: not measured when the row is missing; its reference, when named, is the row that sent the same
 * requests straight to the service.
 */
function fromRow(
  label: string,
  figures: (row: SummaryRow) => { now: string; met: boolean },
  direct?: { label: string; describe(row: SummaryRow, through: SummaryRow): string },
): Target['measure'] {
  return (find) => {
    const row = find(label);
    if (!row) return undefined;
    const directRow = direct && find(direct.label);
    return {
      ...figures(row),
      reference: direct && directRow ? `${direct.describe(directRow, row)}; through the gateway ${times(ratio(row, directRow))} of it` : '–',
    };
  };
}

/** A target read from facts a benchmark recorded: not measured when any of them is missing; no reference. */
function fromFacts(names: string[], figures: (...values: number[]) => { now: string; met: boolean }): Target['measure'] {
  return (_find, facts) => {
    const values = names.map((name) => facts[name]);
    if (values.some((value) => value === undefined)) return undefined;
    return { ...figures(...(values as number[])), reference: '–' };
  };
}

const TARGETS: Target[] = [
  {
    path: 'gateway, trivial route, saturated',
    today: '0.66× of direct (8,787 vs 13,399 req/s), p50 +182 µs',
    target: '≥ 0.85× of direct, p50 added < 0.3 ms',
    measure: (find, facts) => {
      const { direct, gateway, nginx } = proxiedRows(find, 'trivial route', 'direct');
      if (!direct || !gateway) return undefined;
      const added = facts[FACTS.gatewayAddedP50Micros] ?? Number.NaN;
      return {
        now: `${times(ratio(gateway, direct))} of direct (${gateway.requestsPerSecond} vs ${direct.requestsPerSecond} req/s, ${gateway.tool}), p50 +${added} µs`,
        reference: nginx ? `nginx ${times(ratio(nginx, direct))}, p50 +${facts[FACTS.nginxAddedP50Micros]} µs` : '–',
        met: ratio(gateway, direct) >= 0.85 && added < 300,
      };
    },
  },
  {
    path: 'gateway, rate limits on vs off, trivial route, saturated',
    today: '0.53× (801–904 vs 1,386–1,776 req/s, issue 31)',
    target: '≥ 0.95×, limits shared by every replica (tests/replicas/shared-rate-limits.test.ts)',
    measure: (find) => {
      const turns = Array.from({ length: 20 }, (_, index) => [
        find(`trivial route, through the gateway${turnLabel(index + 1)} (saturated)`),
        find(`trivial route, through the gateway with rate limits off${turnLabel(index + 1)} (saturated)`),
      ]);
      const measured = turns.filter((turn): turn is [SummaryRow, SummaryRow] => turn.every(Boolean));
      if (measured.length === 0) return undefined;
      const sum = (rows: SummaryRow[]) => rows.reduce((total, row) => total + row.requestsPerSecond, 0);
      const on = sum(measured.map(([row]) => row));
      const off = sum(measured.map(([, row]) => row));
      return {
        now: `${times(on / off)} (on ${measured.map(([row]) => row.requestsPerSecond).join(' and ')} req/s)`,
        reference: `limits off in turn: ${measured.map(([, row]) => row.requestsPerSecond).join(' and ')} req/s`,
        met: on / off >= 0.95,
      };
    },
  },
  {
    path: 'gateway, `GET /api/product-sectors`',
    today: '0.65× of pricing direct',
    target: '≥ 0.85×',
    measure: (find) => {
      const { direct, gateway, nginx } = proxiedRows(find, 'GET /api/product-sectors', 'pricing direct');
      if (!direct || !gateway) return undefined;
      return {
        now: `${times(ratio(gateway, direct))} (${gateway.requestsPerSecond} vs ${direct.requestsPerSecond} req/s)`,
        reference: nginx ? `nginx ${times(ratio(nginx, direct))}` : '–',
        met: ratio(gateway, direct) >= 0.85,
      };
    },
  },
  {
    path: 'estimate (15 offers)',
    today: '≈ 1 ms of pricing CPU each',
    target: '≤ 0.3 ms pricing CPU per estimate; bulk-50 ≤ 50 × one estimate',
    measure: (find) => {
      const estimate = find('estimate (saturated, 20 connections)');
      const bulk = find('bulk estimate of 50 items (saturated, 8 connections)');
      if (!estimate || !bulk) return undefined;
      const direct = find('estimate, pricing direct (saturated, 20 connections)');
      const one = perRequest(estimate, 'pricing');
      const fifty = perRequest(bulk, 'pricing');
      return {
        now: `${one.toFixed(2)} ms pricing CPU per estimate; bulk-50 ${fifty.toFixed(2)} ms (${(fifty / one).toFixed(0)} × one)`,
        reference: direct
          ? `pricing direct: ${perRequest(direct, 'pricing').toFixed(2)} ms pricing CPU per estimate, ${direct.requestsPerSecond} req/s; through the gateway ${times(ratio(estimate, direct))} of it`
          : '–',
        met: one <= 0.3 && fifty <= 50 * one,
      };
    },
  },
  {
    path: 'checkout',
    today: '68/s saturated, 16 ms of stack CPU each',
    target: '≤ 6 ms of stack CPU; ≥ 150/s on the 2 cores',
    measure: fromRow(
      'POST /api/carts/{id}/checkout with Idempotency-Key (saturated, 10 connections)',
      (checkout) => ({
        now: `${checkout.requestsPerSecond}/s saturated, ${checkout.cpuMsPerRequest} ms of stack CPU each`,
        met: (checkout.cpuMsPerRequest ?? Infinity) <= 6 && checkout.requestsPerSecond >= 150,
      }),
      {
        label: 'POST /api/carts/{id}/checkout with Idempotency-Key, cart-checkout direct (saturated, 10 connections)',
        describe: (direct) => `cart-checkout direct: ${direct.requestsPerSecond}/s, ${direct.cpuMsPerRequest} ms of stack CPU each`,
      },
    ),
  },
  {
    path: 'lender submissions, lender answering in 50 ms',
    today: 'rounds of at most 20 every ~10 s; about 11 cases/s at best; wait 0.1 → 19 s within a minute at 3 checkouts/s (issue 31)',
    target:
      '≥ 30 applications/s; at 20 checkouts/s p99 wait from checkout to application < 2 s; one application per entry into finance review with two replicas (tests/replicas)',
    measure: (find) => {
      const backlog = find(LENDER_ROWS.backlog);
      const paced = find(LENDER_ROWS.paced);
      if (!backlog || !paced) return undefined;
      return {
        now: `${backlog.requestsPerSecond} applications/s from a backlog of ${backlog.requests}; at 20 checkouts/s wait p50 ${paced.p50} ms, p99 ${paced.p99} ms (${paced.requests} cases, ${paced.errors} checkouts failed)`,
        reference: '–',
        met: backlog.requestsPerSecond >= 30 && paced.p99 < 2000 && paced.errors === 0,
      };
    },
  },
  {
    path: 'clock tick, 1,000 due reminders among 100,000 quotes in review',
    today: '47 s (issue 31)',
    target: '≤ 2 s, each mail still sent once with two replicas (tests/replicas)',
    measure: fromFacts([FACTS.clockTickMs, FACTS.clockTickReminders], (ms, reminders) => ({
      now: `${ms} ms for ${reminders} reminders (Scheduler tick section)`,
      met: ms <= 2000 && reminders === 1000,
    })),
  },
  {
    path: 'partner journey',
    today: '51 ms of stack CPU per journey',
    target: '≤ 25 ms',
    measure: fromFacts([FACTS.stackCpuMsPerJourney], (perJourney) => ({ now: `${perJourney.toFixed(1)} ms of stack CPU per journey`, met: perJourney <= 25 })),
  },
  {
    path: 'case list',
    today: '368 req/s',
    target: '≥ 1,000 req/s, p99 < 50 ms',
    measure: fromRow(
      'GET /api/financing_cases, page of 30 (saturated, 10 connections)',
      (list) => ({
        now: `${list.requestsPerSecond} req/s, p99 ${list.p99} ms (${list.cpuMsPerRequest} ms of stack CPU per page)`,
        met: list.requestsPerSecond >= 1000 && list.p99 < 50,
      }),
      {
        label: 'GET /api/financing_cases, page of 30, case-workflow direct (saturated, 10 connections)',
        describe: (direct) =>
          `case-workflow direct: ${direct.requestsPerSecond} req/s, p99 ${direct.p99} ms (${direct.cpuMsPerRequest} ms of stack CPU per page)`,
      },
    ),
  },
  {
    path: 'webhook delivery',
    today: '500/s, p99 lag 15–32 ms',
    target: '≥ 2,000 deliveries/s with p99 lag < 100 ms, 50 endpoints',
    measure: fromRow('50 endpoints (5 partners × 10), 200 events/s for 10 s', (paced) => ({
      now: `${paced.requestsPerSecond} deliveries/s, p99 lag ${paced.p99} ms`,
      met: paced.requestsPerSecond >= 2000 && paced.p99 < 100,
    })),
  },
  {
    path: 'memory under the journey load',
    today: '120 s observed, no growth',
    target: 'peak RSS per process flat over 5 minutes',
    measure: fromFacts([FACTS.journeySeconds, FACTS.processesThatGrew], (seconds, grew) => ({
      now: `${seconds} s observed, ${grew} processes grew (Partner journey section)`,
      met: seconds >= 300 && grew === 0,
    })),
  },
];

/** The targets table: the figures of 2026-11-23, this run's, its references and whether each target holds. */
export function targetsTable(rows: SummaryRow[], facts: Record<string, number>): string {
  const find = (label: string) => rows.find((row) => row.label === label || row.label.startsWith(`${label} —`) || row.label.startsWith(`${label} (`));
  const lines = [
    '| path | before (issue 18: 2026-11-23; issue 31: its own figures) | this run | reference, same run | target | met |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const target of TARGETS) {
    const figures = target.measure(find, facts);
    lines.push(
      `| ${target.path} | ${target.today} | ${figures?.now ?? 'not measured (the benchmark failed)'} | ${figures?.reference ?? '–'} | ${target.target} | ${figures ? (figures.met ? 'yes' : 'no') : '–'} |`,
    );
  }
  return lines.join('\n');
}
