import http from 'node:http';
import { Client } from 'pg';
import { ApiClient, Stack, bootStack, fixturePartnerKey, loopbackUrl, percentile, runDate, shutdownStack, startLoopbackServer } from '@rental/testkit';
import { BENCH_RATE_LIMITS, Recorder, stackProcesses } from './harness';
import { report } from './report';
import { CART, CHECKOUT, idempotencyKey } from './requests';

/**
 * Lender submissions on a production stack whose lender (lender-a, acme's) is an HTTP server of
 * this benchmark answering every application after 50 ms: how many applications a second the
 * worker hands over from a backlog, and how long an application waits after its checkout at 20
 * checkouts a second.
 */
const TITLE = 'Lender submissions';
const LENDER_ANSWER_MS = 50;
const BACKLOG = Number(process.env.BENCH_LENDER_BACKLOG ?? 300);
const PACED_RATE = 20;
const PACED_SECONDS = Number(process.env.BENCH_LENDER_SECONDS ?? 15);
const DRAIN_MS = 30_000;

/** The rows' labels, which the targets table reads. */
export const LENDER_ROWS = {
  backlog: `lender submissions from a backlog, lender answering in ${LENDER_ANSWER_MS} ms`,
  paced: `lender submissions at ${PACED_RATE} checkouts/s, lender answering in ${LENDER_ANSWER_MS} ms`,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The lender's intake: records when each application first arrived, refuses while `open` is false. */
class BenchLender {
  open = false;
  readonly arrivals = new Map<string, number>();
  /** Applications taken (200) per application id: more than one would be a duplicate submission. */
  readonly taken = new Map<string, number>();

  private constructor(readonly server: http.Server) {}

  static async start(): Promise<BenchLender> {
    const lender: BenchLender = new BenchLender(
      await startLoopbackServer((_req, body, res) => {
        const at = Date.now();
        const { data } = JSON.parse(body.toString('utf8')) as { data: { applicationId: string; financingCaseId: string } };
        if (!lender.open) {
          res.writeHead(503).end();
          return;
        }
        setTimeout(() => {
          if (!lender.arrivals.has(data.financingCaseId)) lender.arrivals.set(data.financingCaseId, at);
          lender.taken.set(data.applicationId, (lender.taken.get(data.applicationId) ?? 0) + 1);
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ reference: `BENCH-${data.applicationId}` }));
        }, LENDER_ANSWER_MS);
      }),
    );
    return lender;
  }

  get url(): string {
    return loopbackUrl(this.server);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function sql(stack: Stack, text: string, values: unknown[] = []): Promise<void> {
  const client = new Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** A cart, then its checkout with submitFinancing; the case id, when the checkout was sent and when it was answered. */
async function checkout(api: ApiClient): Promise<{ caseId: string; sentAt: number; answeredAt: number }> {
  const cart = await api.post('/api/carts', CART);
  if (cart.status !== 201) throw new Error(`cart ${cart.status}: ${cart.text}`);
  const sentAt = Date.now();
  const answer = await api.request('POST', `/api/carts/${cart.json.cartId}/checkout`, { body: CHECKOUT, headers: idempotencyKey() });
  if (answer.status !== 201) throw new Error(`checkout ${answer.status}: ${answer.text}`);
  return { caseId: answer.json.financeCaseId as string, sentAt, answeredAt: Date.now() };
}

async function until(done: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await sleep(100);
}

export async function lenderSubmissionsBench(recorder: Recorder): Promise<void> {
  const lender = await BenchLender.start();
  const stack = await bootStack({ environment: 'production', env: BENCH_RATE_LIMITS });
  const watched = new Recorder(stackProcesses(stack), recorder.rows, recorder.facts);
  try {
    await sql(stack, 'UPDATE case_workflow.lenders SET intake_url = $1 WHERE id = $2', [lender.url, 'lender-a']);
    const api = new ApiClient(stack.gatewayUrl, fixturePartnerKey('acme', 'production'));

    // Backlog: the lender refuses while the checkouts queue their submissions, then answers.
    const backlog: string[] = [];
    const failures: string[] = [];
    let started = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (started < BACKLOG) {
          started += 1;
          await checkout(api).then(
            (flight) => {
              backlog.push(flight.caseId);
            },
            (error: Error) => {
              failures.push(error.message);
            },
          );
        }
      }),
    );
    lender.open = true;
    const drained = await watched.watch(async () => {
      await sql(stack, "UPDATE case_workflow.lender_submissions SET next_attempt_at = now() WHERE status = 'failed'");
      await until(() => backlog.every((caseId) => lender.arrivals.has(caseId)), DRAIN_MS + 30_000);
    });
    const backlogTimes = backlog
      .map((caseId) => lender.arrivals.get(caseId))
      .filter((at): at is number => at !== undefined)
      .sort((a, b) => a - b);
    const drainSeconds = ((backlogTimes.at(-1) ?? 0) - (backlogTimes[0] ?? 0)) / 1000;
    const perSecond = Math.round((backlogTimes.length - 1) / Math.max(drainSeconds, 0.001));
    watched.add({
      benchmark: 'lender submissions',
      label: `${LENDER_ROWS.backlog} (applications/s; ${backlog.length} submissions)`,
      requestsPerSecond: perSecond,
      p50: 0,
      p99: 0,
      errors: 0,
      non2xx: backlog.length - backlogTimes.length,
      requests: backlogTimes.length,
      peakRssMb: drained.peakRssMb,
      tool: 'checkouts, then the queue drained',
      cpuMs: drained.cpuMs,
    });

    // Paced: 20 checkouts a second; the wait is from sending the checkout to the application's arrival.
    const flights: { caseId: string; sentAt: number; answeredAt: number }[] = [];
    const paced = await watched.watch(async () => {
      const started: Promise<void>[] = [];
      const begin = Date.now();
      for (let index = 0; index < PACED_RATE * PACED_SECONDS; index += 1) {
        await sleep(Math.max(0, begin + (index * 1000) / PACED_RATE - Date.now()));
        started.push(
          checkout(api).then(
            (flight) => {
              flights.push(flight);
            },
            (error: Error) => {
              failures.push(error.message);
            },
          ),
        );
      }
      await Promise.all(started);
      await until(() => flights.every((flight) => lender.arrivals.has(flight.caseId)), DRAIN_MS);
    });
    const waits = flights
      .map((flight) => (lender.arrivals.get(flight.caseId) ?? Number.NaN) - flight.sentAt)
      .filter((ms) => !Number.isNaN(ms))
      .sort((a, b) => a - b);
    watched.add({
      benchmark: 'lender submissions',
      label: `${LENDER_ROWS.paced} (latency: checkout sent to application received; ${PACED_SECONDS} s)`,
      requestsPerSecond: PACED_RATE,
      p50: percentile(waits, 50),
      p99: percentile(waits, 99),
      errors: failures.length,
      non2xx: flights.length - waits.length,
      requests: waits.length,
      peakRssMb: paced.peakRssMb,
      tool: 'paced checkouts',
      cpuMs: paced.cpuMs,
    });

    // The part of the wait after the checkout's answer: the queue's own share.
    const queued = flights
      .map((flight) => (lender.arrivals.get(flight.caseId) ?? Number.NaN) - flight.answeredAt)
      .filter((ms) => !Number.isNaN(ms))
      .sort((a, b) => a - b);
    const answers = flights.map((flight) => flight.answeredAt - flight.sentAt).sort((a, b) => a - b);
    const duplicates = [...lender.taken.values()].filter((count) => count > 1).length;
    report(
      TITLE,
      [
        `Command: \`npm run bench:lender-submissions\` (${runDate()}; part of \`npm run bench\`), a production stack booted by the test kit with the default LENDER_SUBMISSION_* settings; lender-a's intake is an HTTP server of the benchmark that takes each application after ${LENDER_ANSWER_MS} ms. Backlog: ${BACKLOG} checkouts (4 at a time) while the lender answers 503, then the lender answers and the failed submissions are made due at once; applications/s from the first to the last application taken. Paced: ${PACED_RATE} checkouts a second for ${PACED_SECONDS} s; the wait is from sending the checkout to the application's arrival at the lender. ${failures.length} checkouts failed${failures[0] ? ` (first: ${failures[0]})` : ''}; ${duplicates} applications were taken more than once.`,
        '',
        '| run | cases | applications/s | wait p50 ms | wait p99 ms | wait max ms |',
        '| --- | ---: | ---: | ---: | ---: | ---: |',
        `| backlog of ${backlog.length} | ${backlogTimes.length} | ${perSecond} | – | – | – |`,
        `| ${PACED_RATE} checkouts/s: checkout sent → application received | ${waits.length} | – | ${percentile(waits, 50)} | ${percentile(waits, 99)} | ${waits.at(-1) ?? '–'} |`,
        `| ${PACED_RATE} checkouts/s: checkout sent → checkout answered | ${answers.length} | – | ${percentile(answers, 50)} | ${percentile(answers, 99)} | ${answers.at(-1) ?? '–'} |`,
        `| ${PACED_RATE} checkouts/s: checkout answered → application received | ${queued.length} | – | ${percentile(queued, 50)} | ${percentile(queued, 99)} | ${queued.at(-1) ?? '–'} |`,
      ].join('\n'),
    );
  } finally {
    await shutdownStack(stack);
    await lender.close();
  }
}

if (require.main === module) {
  lenderSubmissionsBench(new Recorder(() => ({}))).catch((error: unknown) => {
    process.stderr.write(`bench:lender-submissions failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
