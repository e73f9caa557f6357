import { createLogger } from '@rental/logger';
import { registry } from '@rental/metrics';
import { JobLease, PeriodicJobOptions, periodicJob, queueWorker } from './jobs';

const log = createLogger('jobs-test', 'silent');
/** A long poll: every run in these tests is started by the loop itself or by wake(), never by a timer. */
const NEVER_MS = 60_000;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

async function runs(job: string): Promise<Record<string, number>> {
  const metric = (await registry.getSingleMetric('background_job_runs_total')?.get())?.values ?? [];
  return Object.fromEntries(metric.filter((value) => value.labels.job === job).map((value) => [String(value.labels.outcome), value.value]));
}

/** A queue worker that sleeps until woken, claims from `due` and counts its claims. */
function wokenQueue(name: string, concurrency: number, due: string[], process: (job: string) => Promise<void>) {
  const counted = { claims: 0 };
  const worker = queueWorker<string>({
    name,
    concurrency,
    pollMs: NEVER_MS,
    log,
    nextDueAt: async () => undefined,
    claim: async (limit) => {
      counted.claims += 1;
      return due.splice(0, limit);
    },
    process,
  });
  return { worker, counted };
}

describe('queueWorker', () => {
  it('when more jobs are due than slots, then at most `concurrency` run at once, claims see the running jobs under each of their keys, and every job runs once', async () => {
    const due = ['a1', 'a2', 'a3', 'b1', 'b2'];
    const seenInFlight: Record<string, number>[] = [];
    const running: string[] = [];
    let mostAtOnce = 0;
    const done: string[] = [];
    const gates = new Map(due.map((id) => [id, deferred()]));
    const worker = queueWorker<string>({
      name: 'test-queue',
      concurrency: 2,
      pollMs: NEVER_MS,
      log,
      keysOf: (job) => [job[0]!, 'any'],
      claim: async (limit, inFlight) => {
        seenInFlight.push(Object.fromEntries(inFlight));
        return due.splice(0, limit);
      },
      process: async (job) => {
        running.push(job);
        mostAtOnce = Math.max(mostAtOnce, running.length);
        await gates.get(job)!.promise;
        running.splice(running.indexOf(job), 1);
        done.push(job);
      },
    });

    worker.start();
    // One job finishes at a time, and the next only once the worker has claimed again.
    while (done.length < 5) {
      await until(() => running.length > 0);
      const claims = seenInFlight.length;
      const next = running[0]!;
      gates.get(next)!.resolve();
      await until(() => done.includes(next) && (seenInFlight.length > claims || due.length === 0));
    }
    await worker.stop();

    expect(done).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
    expect(mostAtOnce).toBe(2);
    expect(seenInFlight.slice(0, 4)).toEqual([{}, { a: 1, any: 1 }, { a: 1, any: 1 }, { b: 1, any: 1 }]);
    expect(await runs('test-queue')).toEqual({ succeeded: 5 });
  });

  it('when a job throws, then it counts as failed and the worker goes on with the next', async () => {
    const due = ['bad', 'good'];
    const done: string[] = [];
    const worker = queueWorker<string>({
      name: 'test-failing-queue',
      concurrency: 1,
      pollMs: NEVER_MS,
      log,
      claim: async (limit) => due.splice(0, limit),
      process: async (job) => {
        if (job === 'bad') throw new Error('broken');
        done.push(job);
      },
    });

    worker.start();
    await until(() => done.length === 1);
    await worker.stop();

    expect(done).toEqual(['good']);
    expect(await runs('test-failing-queue')).toEqual({ succeeded: 1, failed: 1 });
  });

  it('when it sleeps and wake() is called, then it claims again at once; stop() waits for the job in flight', async () => {
    const due: string[] = [];
    const gate = deferred();
    const done: string[] = [];
    const { worker, counted } = wokenQueue('test-woken-queue', 4, due, async (job) => {
      await gate.promise;
      done.push(job);
    });

    worker.start();
    await until(() => counted.claims === 1);
    due.push('late');
    worker.wake();
    await until(() => counted.claims === 2);
    const stopped = worker.stop();
    gate.resolve();
    await stopped;

    expect(done).toEqual(['late']);
  });

  it('when jobs are handed over, then they run without a claim while a slot is free, the rest are stored unleased for the next claim, and stored-before jobs run nowhere', async () => {
    const gates = new Map(['h1', 'h2', 'h3'].map((id) => [id, deferred()]));
    const stored: { job: string; toThisWorker: boolean }[] = [];
    const unleased: string[] = [];
    const running: string[] = [];
    const done: string[] = [];
    const { worker, counted } = wokenQueue('test-handover-queue', 2, unleased, async (job) => {
      running.push(job);
      await gates.get(job)!.promise;
      running.splice(running.indexOf(job), 1);
      done.push(job);
    });
    const store = (job: string) => async (toThisWorker: boolean) => {
      stored.push({ job, toThisWorker });
      if (!toThisWorker) unleased.push(job);
      return job;
    };

    worker.start();
    await until(() => counted.claims === 1);
    // Both slots are taken while the stores are still writing: the third goes to the claim.
    const handed = await Promise.all([worker.handOver(store('h1')), worker.handOver(store('h2')), worker.handOver(store('h3'))]);
    const duplicate = await worker.handOver(async () => undefined);
    await until(() => running.length === 2);
    const claimsWhileFull = counted.claims;
    gates.get('h1')!.resolve();
    await until(() => running.includes('h3'));
    gates.get('h2')!.resolve();
    gates.get('h3')!.resolve();
    await until(() => done.length === 3);
    await worker.stop();

    expect(handed).toEqual(['h1', 'h2', 'h3']);
    expect(duplicate).toBeUndefined();
    expect(stored).toEqual([
      { job: 'h1', toThisWorker: true },
      { job: 'h2', toThisWorker: true },
      { job: 'h3', toThisWorker: false },
    ]);
    expect(counted.claims).toBeGreaterThan(claimsWhileFull);
    expect(done.sort()).toEqual(['h1', 'h2', 'h3']);
    expect(await runs('test-handover-queue')).toEqual({ succeeded: 3 });
  });
});

/** A periodic job that waits for wake() between rounds and counts them; `round` gets the round's number. */
function countedJob(name: string, round: (count: number) => boolean | void, options: Partial<PeriodicJobOptions> = {}) {
  const counted = { rounds: 0 };
  const job = periodicJob({
    name,
    everyMs: NEVER_MS,
    log,
    ...options,
    run: async () => {
      counted.rounds += 1;
      return round(counted.rounds);
    },
  });
  return { job, counted };
}

describe('periodicJob', () => {
  it('when started, then the first round runs at once, rounds that report more follow at once, and wake() starts the next', async () => {
    const { job, counted } = countedJob('test-periodic', (count) => count < 3);

    job.start();
    await until(() => counted.rounds === 3);
    job.wake();
    await until(() => counted.rounds === 4);
    await job.stop();

    expect(counted.rounds).toBe(4);
    expect(await runs('test-periodic')).toEqual({ succeeded: 4 });
  });

  it('when another replica holds the singleton lease, then the round is skipped; when it holds it, the round runs and the lease is released', async () => {
    let free = false;
    const calls: string[] = [];
    const lease: JobLease = {
      acquire: async (until) => {
        calls.push(`acquire ${until.getTime() > Date.now() ? 'ahead' : 'past'}`);
        return free;
      },
      release: async () => {
        calls.push('release');
      },
    };
    const { job, counted } = countedJob('test-singleton', () => undefined, { singleton: lease });

    job.start();
    await until(() => calls.length === 1);
    free = true;
    job.wake();
    await until(() => counted.rounds === 1 && calls.length === 3);
    await job.stop();

    expect(calls).toEqual(['acquire ahead', 'acquire ahead', 'release']);
    expect(await runs('test-singleton')).toEqual({ skipped: 1, succeeded: 1 });
  });

  it('when a round throws, then it counts as failed and the next round still runs', async () => {
    const { job, counted } = countedJob('test-periodic-failing', (count) => {
      if (count === 1) throw new Error('database away');
    });

    job.start();
    await until(() => counted.rounds === 1);
    job.wake();
    await until(() => counted.rounds === 2);
    await job.stop();

    expect(await runs('test-periodic-failing')).toEqual({ failed: 1, succeeded: 1 });
  });

  it('when wakes follow a round closely, then the next round waits until the gap after the last one began and takes them all; a wake after a quiet spell runs at once', async () => {
    const starts: number[] = [];
    const { job, counted } = countedJob(
      'test-periodic-gap',
      () => {
        starts.push(Date.now());
      },
      { minWokenGapMs: 1000 },
    );

    job.start();
    await until(() => counted.rounds === 1);
    job.wake();
    job.wake();
    await until(() => counted.rounds === 2);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const quietWake = Date.now();
    job.wake();
    await until(() => counted.rounds === 3);
    await job.stop();

    expect(counted.rounds).toBe(3);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(995);
    expect(starts[2]! - quietWake).toBeLessThan(500);
  });
});
