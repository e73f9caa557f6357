import { backoffDelayMs } from '@rental/retry-schedule';
import { lenderRetrySchedule, submitOne } from './lender-submission';
import type { LenderSubmission, LenderSubmissionQueue } from './ports';

class MemoryQueue implements LenderSubmissionQueue {
  readonly rows = new Map<number, LenderSubmission & { status: string; retryAt: number; reference?: string; error?: string }>();

  add(id: number): void {
    this.rows.set(id, {
      id,
      applicationId: `A${id}`,
      quoteId: `Q${id}`,
      financingCaseId: `C${id}`,
      partnerId: 'acme',
      lenderId: 'lender-a',
      attempts: 0,
      status: 'pending',
      retryAt: 0,
    });
  }

  async claimDue(now: Date): Promise<LenderSubmission[]> {
    const due = [...this.rows.values()].filter((row) => (row.status === 'pending' || row.status === 'failed') && row.retryAt <= now.getTime());
    due.forEach((row) => {
      row.attempts += 1;
    });
    return due.map((row) => ({ ...row }));
  }

  async nextDueAt(): Promise<Date | undefined> {
    return undefined;
  }

  async markSubmitted(id: number, reference: string): Promise<void> {
    Object.assign(this.rows.get(id) as object, { status: 'submitted', reference });
  }

  async markFailed(id: number, error: string, retryAt: Date | null): Promise<void> {
    Object.assign(this.rows.get(id) as object, { status: retryAt ? 'failed' : 'given_up', error, retryAt: retryAt?.getTime() ?? Infinity });
  }
}

/**
 * Submission `id` queued, a lender that fails its first `failures` calls ("lender down") and
 * then answers REF-<id>, and rounds of the job at the times the test names.
 */
function queued(id: number, failures: number, maxAttempts?: number) {
  const queue = new MemoryQueue();
  queue.add(id);
  const lender = {
    calls: 0,
    async submit(submission: LenderSubmission): Promise<{ reference: string }> {
      lender.calls += 1;
      if (lender.calls <= failures) throw new Error('lender down');
      return { reference: `REF-${submission.id}` };
    },
    sendAttachments: async () => undefined,
  };
  const clock = { ms: 0 };
  const deps = { queue, lender, now: () => new Date(clock.ms), schedule: lenderRetrySchedule(maxAttempts) };
  /** What the worker does with the clock at `ms`: claims what is due and submits each. */
  const roundAt = async (ms: number) => {
    clock.ms = ms;
    const outcomes = await Promise.all((await queue.claimDue(deps.now())).map((submission) => submitOne(deps, submission)));
    return { submitted: outcomes.filter((outcome) => outcome === 'submitted').length, failed: outcomes.filter((outcome) => outcome === 'failed').length };
  };
  return { queue, lender, roundAt };
}

describe('lender submissions', () => {
  it('when the lender accepts, then the submission becomes submitted with its reference', async () => {
    const { queue, roundAt } = queued(1, 0);
    expect(await roundAt(1000)).toEqual({ submitted: 1, failed: 0 });
    expect(queue.rows.get(1)).toMatchObject({ status: 'submitted', reference: 'REF-1', attempts: 1 });
  });

  it('when the lender fails, then the submission is failed, waits, and is retried until it goes through', async () => {
    const { queue, roundAt } = queued(7, 2);

    expect(await roundAt(0)).toEqual({ submitted: 0, failed: 1 });
    expect(queue.rows.get(7)).toMatchObject({ status: 'failed', error: 'lender down', retryAt: 2000 });
    expect(await roundAt(0)).toEqual({ submitted: 0, failed: 0 });
    expect(await roundAt(2000)).toEqual({ submitted: 0, failed: 1 });
    expect(queue.rows.get(7)).toMatchObject({ status: 'failed', retryAt: 6000 });
    expect(await roundAt(6000)).toEqual({ submitted: 1, failed: 0 });
    expect(queue.rows.get(7)).toMatchObject({ status: 'submitted', attempts: 3 });
  });

  it('when the attempts run out, then the submission stays failed and is not tried again', async () => {
    const { queue, lender, roundAt } = queued(3, Infinity, 2);
    expect(await roundAt(0)).toEqual({ submitted: 0, failed: 1 });
    expect(await roundAt(2000)).toEqual({ submitted: 0, failed: 1 });
    expect(queue.rows.get(3)).toMatchObject({ status: 'given_up', attempts: 2 });
    expect(await roundAt(10_000_000)).toEqual({ submitted: 0, failed: 0 });
    expect(lender.calls).toBe(2);
  });

  it('when failures repeat, then the wait doubles up to five minutes', () => {
    expect([1, 2, 3, 4, 8, 20].map((attempts) => backoffDelayMs(lenderRetrySchedule(), attempts))).toEqual([2000, 4000, 8000, 16000, 256000, 300000]);
  });
});
