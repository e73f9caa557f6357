import { type Stack, waitFor } from '@rental/testkit';
import { Owner, newCase, newPartner, query } from '../case-workflow/support/kit';
import { OutsideParty } from './support/outside-parties';
import { seededLender, sendLenderApplicationsTo } from './support/seeded-lenders';

/**
 * Lender submissions as a queue: a lender that holds one application's answer holds up only
 * that submission, the cases checked out meanwhile reach the lender at once, and each case's
 * application is sent once. Run by production/shared-stack.test.ts, on a production stack.
 */
export function submissionQueueSuite(production: { readonly stack: Stack }): void {
  describe('lender submission queue', () => {
    const lenderA = seededLender('lender-a');
    const OTHERS = 6;

    let lender: OutsideParty;
    let owner: Owner;

    beforeAll(async () => {
      lender = await OutsideParty.start(lenderA.webhookSecret, () => ({ status: 500 }));
      owner = await newPartner(production.stack);
      await sendLenderApplicationsTo(lender, production.stack);
    });

    afterAll(() => lender?.close());

    const statusOf = async (caseId: string) =>
      (
        await query<{ lender_submission_status: string }>(
          'SELECT lender_submission_status FROM quotes WHERE financing_case_id = $1',
          [caseId],
          production.stack,
        )
      )[0]?.lender_submission_status;

    it('when the lender holds one application, then the cases checked out meanwhile are submitted while it waits, and each application is sent once', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holding: string | undefined;
      lender.answerWith((request) => {
        const caseId = String(request.body?.data?.financingCaseId);
        holding ??= caseId;
        // Well within the 10 s an attempt may take: the old rounds of 20 waited for it all along.
        return { status: 200, body: { reference: `REF-${caseId.slice(-8)}` }, ...(caseId === holding ? { heldUntil: held } : {}) };
      });
      const first = await newCase(owner, {}, production.stack);
      await waitFor(async () => (holding ? true : undefined), { timeoutMs: 20_000, what: 'the first application' });
      expect(holding).toBe(first.caseId);
      const others = await Promise.all(Array.from({ length: OTHERS }, () => newCase(owner, {}, production.stack)));
      try {
        await waitFor(
          async () => ((await Promise.all(others.map((created) => statusOf(created.caseId)))).every((status) => status === 'submitted') ? true : undefined),
          { timeoutMs: 7_000, what: 'the other submissions while the first is held' },
        );
        expect(await statusOf(first.caseId)).toBe('pending');
      } finally {
        release();
      }
      await waitFor(async () => ((await statusOf(first.caseId)) === 'submitted' ? true : undefined), { timeoutMs: 20_000, what: 'the held submission' });
      const applications = [first, ...others].map((created) => lender.about(created.caseId).filter((request) => request.path.endsWith('/applications')).length);
      expect(applications).toEqual(Array.from({ length: OTHERS + 1 }, () => 1));
    });
  });
}
