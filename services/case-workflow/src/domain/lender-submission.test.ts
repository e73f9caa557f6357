import { retryDelayMs, submitDueSubmissions } from './lender-submission';
import type { LenderSubmission, LenderSubmissionQueue } from './ports';

class MemoryQueue implements LenderSubmissionQueue {
  readonly rows = new Map<number, LenderSubmission & { status: string; retryAt: number; reference?: string; error?: string }>();

  add(id: number): void {
    this.rows.set(id, { id, applicationId: `A${id}`, quoteId: `Q${id}`, financingCaseId: `C${id}`, partnerId: 'acme', lenderId: 'lender-a', attempts: 0, status: 'pending', retryAt: 0 });
  }

  async claimDue(now: Date): Promise<LenderSubmission[]> {
    const due = [...this.rows.values()].filter((row) => (row.status === 'pending' || row.status === 'failed') && row.retryAt <= now.getTime());
    due.forEach((row) => { row.attempts += 1; });
    return due.map((row) => ({ ...row }));
  }

  async markSubmitted(id: number, reference: string): Promise<void> {
    Object.assign(this.rows.get(id) as object, { status: 'submitted', reference });
  }

  async markFailed(id: number, error: string, retryAt: Date | null): Promise<void> {
    Object.assign(this.rows.get(id) as object, { status: retryAt ? 'failed' : 'given_up', error, retryAt: retryAt?.getTime() ?? Infinity });
  }
}

describe('lender submissions', () => {
  it('when the lender accepts, then the submission becomes submitted with its reference', async () => {
    const queue = new MemoryQueue();
    queue.add(1);
    const round = await submitDueSubmissions({ queue, lender: { submit: async (s) => ({ reference: `REF-${s.id}` }), sendAttachments: async () => undefined }, now: () => new Date(1000) });
    expect(round).toEqual({ submitted: 1, failed: 0 });
    expect(queue.rows.get(1)).toMatchObject({ status: 'submitted', reference: 'REF-1', attempts: 1 });
  });

  it('when the lender fails, then the submission is failed, waits, and is retried until it goes through', async () => {
    const queue = new MemoryQueue();
    queue.add(7);
    let calls = 0;
    const lender = { submit: async () => { calls += 1; if (calls < 3) throw new Error('lender down'); return { reference: 'REF-7' }; }, sendAttachments: async () => undefined };
    let clock = 0;
    const deps = { queue, lender, now: () => new Date(clock) };

    expect(await submitDueSubmissions(deps)).toEqual({ submitted: 0, failed: 1 });
    expect(queue.rows.get(7)).toMatchObject({ status: 'failed', error: 'lender down', retryAt: 2000 });
    expect(await submitDueSubmissions(deps)).toEqual({ submitted: 0, failed: 0 });
    clock = 2000;
    expect(await submitDueSubmissions(deps)).toEqual({ submitted: 0, failed: 1 });
    expect(queue.rows.get(7)).toMatchObject({ status: 'failed', retryAt: 6000 });
    clock = 6000;
    expect(await submitDueSubmissions(deps)).toEqual({ submitted: 1, failed: 0 });
    expect(queue.rows.get(7)).toMatchObject({ status: 'submitted', attempts: 3 });
  });

  it('when the attempts run out, then the submission stays failed and is not tried again', async () => {
    const queue = new MemoryQueue();
    queue.add(3);
    let calls = 0;
    const lender = { submit: async (): Promise<{ reference: string }> => { calls += 1; throw new Error('lender down'); }, sendAttachments: async () => undefined };
    let clock = 0;
    const deps = { queue, lender, now: () => new Date(clock), maxAttempts: 2 };
    expect(await submitDueSubmissions(deps)).toEqual({ submitted: 0, failed: 1 });
    clock = 2000;
    expect(await submitDueSubmissions(deps)).toEqual({ submitted: 0, failed: 1 });
    expect(queue.rows.get(3)).toMatchObject({ status: 'given_up', attempts: 2 });
    clock = 10_000_000;
    expect(await submitDueSubmissions(deps)).toEqual({ submitted: 0, failed: 0 });
    expect(calls).toBe(2);
  });

  it('when failures repeat, then the wait doubles up to five minutes', () => {
    expect([1, 2, 3, 4, 8, 20].map(retryDelayMs)).toEqual([2000, 4000, 8000, 16000, 256000, 300000]);
  });
});
