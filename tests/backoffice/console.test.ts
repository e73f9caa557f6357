import path from 'node:path';
import type { Page } from 'playwright-core';
import { sampleFile, upload } from '../documents/support/kit';
import { screenshotDirectory, useWatchedBrowser } from '../support/browser';
import { Ops, Owner, Role, consolePageAs, partnerCase, sharedStack, simulate } from './support/kit';

const SCREENSHOTS = screenshotDirectory('SAVE_CONSOLE_SCREENSHOTS');

describe('approval team console (headless chromium)', () => {
  const browser = useWatchedBrowser();
  const gateway = () => sharedStack().gatewayUrl;

  const signedIn = (role: Role): Promise<Page> => consolePageAs(browser(), role);

  /** A finance_rejected case with a partner document waiting for review. */
  async function rejectedCaseWithDocument(): Promise<{ owner: Owner; caseId: string; itemId: number; caseNumber: string }> {
    const { owner, caseId } = await partnerCase();
    const reviewer = await Ops.as('reviewer');
    const item = (
      await reviewer.post(`/ops/v1/cases/${caseId}/requests`, {
        items: [{ type: 'document', label: 'Annual statement 2025', category: 'annual_financial_statement' }],
      })
    ).json[0];
    await upload(owner.api, caseId, {
      file: { bytes: sampleFile('pdf'), name: 'statement-2025.pdf', type: 'application/pdf' },
      category: 'annual_financial_statement',
      requestedDocumentId: item.id,
    });
    await simulate(owner, caseId, 'finance_rejected', { rejectionReason: 'Equity too low' });
    const caseNumber = (await reviewer.get(`/ops/v1/cases/${caseId}`)).json.caseNumber as string;
    return { owner, caseId, itemId: item.id as number, caseNumber };
  }

  it('when the console is served, then its Content-Security-Policy allows its own scripts and styles by hash, the identity provider for sign-in, and no framing', async () => {
    const response = await fetch(`${gateway()}/console/cases/01J9ZZZZZZZZZZZZZZZZZZZZZZ`);
    expect(response.status).toBe(200);
    const policy = (response.headers.get('content-security-policy') ?? '').split(/;\s*/);
    const issuer = new URL(((await (await fetch(`${gateway()}/ops/v1/session-config`)).json()) as { issuer: string }).issuer).origin;
    expect(policy).toEqual(
      expect.arrayContaining([
        "default-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
        "form-action 'self'",
        `connect-src 'self' ${issuer}`,
      ]),
    );
    expect(policy.find((directive) => directive.startsWith('script-src'))).toMatch(/^script-src 'self'( 'sha256-[A-Za-z0-9+/]{43}=')+$/);
    expect(policy.find((directive) => directive.startsWith('style-src'))).toMatch(/^style-src 'self'( 'sha256-[A-Za-z0-9+/]{43}=')+$/);
    expect(policy.join(';')).not.toContain('unsafe-');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('when each role signs in, then the case page offers only the actions that role allows', async () => {
    const { caseId } = await rejectedCaseWithDocument();
    const seen: Record<string, Record<string, number>> = {};

    for (const role of ['viewer', 'reviewer', 'approver'] as const) {
      const page = await signedIn(role);
      await page.goto(`${gateway()}/console/cases/${caseId}`);
      await page.getByRole('heading', { name: 'History' }).waitFor();
      seen[role] = {
        actions: await page.getByRole('heading', { name: 'Actions' }).count(),
        verify: await page.getByRole('button', { name: 'Verify' }).count(),
        note: await page.getByRole('button', { name: 'Add note' }).count(),
        financeAccept: await page.locator('select[name="transition"] option', { hasText: /^finance_accept$/ }).count(),
        override: await page.getByRole('button', { name: 'Override' }).count(),
        cancel: await page.getByRole('button', { name: 'Cancel case' }).count(),
      };
    }

    expect(seen).toEqual({
      viewer: { actions: 0, verify: 0, note: 0, financeAccept: 0, override: 0, cancel: 0 },
      reviewer: { actions: 1, verify: 1, note: 1, financeAccept: 0, override: 0, cancel: 0 },
      approver: { actions: 1, verify: 1, note: 1, financeAccept: 1, override: 1, cancel: 1 },
    });
  });

  it('when a viewer searches a case number with the keyboard, then the queue shows that case and its link opens the case page', async () => {
    const { caseNumber } = await rejectedCaseWithDocument();
    const page = await signedIn('viewer');

    await page.keyboard.press('/');
    await page.keyboard.type(caseNumber);
    await page.keyboard.press('Enter');
    const link = page.getByRole('link', { name: caseNumber });
    await link.waitFor();
    const rows = await page.locator('table[aria-label^="Cases"] tbody tr').count();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'console-queue.png'), fullPage: true });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Case ${caseNumber}` }).waitFor();

    expect([rows, new URL(page.url()).pathname.startsWith('/console/cases/')]).toEqual([1, true]);
    expect(new URL(page.url()).pathname).not.toBe('/console');
  });

  it("when a reviewer rejects a document with a reason, then the partner's list shows the request open again", async () => {
    const { owner, caseId, itemId } = await rejectedCaseWithDocument();
    const page = await signedIn('reviewer');
    await page.goto(`${gateway()}/console/cases/${caseId}`);

    await page.getByLabel(/^Reason for document/).fill('The scan is unreadable');
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('The document is rejected; the partner is asked again.').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'console-case.png'), fullPage: true });

    const listed = (await owner.api.get(`/api/financing-cases/${caseId}/document-requests`)).json.find((item: { id: number }) => item.id === itemId);
    expect(listed).toMatchObject({ status: 'pending', editable: true });
    expect(await page.locator('table[aria-label="Documents"]').innerText()).toContain('REJECTED');
  });

  it('when an approver overrides a rejection with a reason, then the case is finance_accepted and the history shows the reason', async () => {
    const { caseId } = await rejectedCaseWithDocument();
    const page = await signedIn('approver');
    await page.goto(`${gateway()}/console/cases/${caseId}`);

    await page.locator('form[data-action="override"] textarea[name="reason"]').fill('Guarantor signed');
    await page.getByRole('button', { name: 'Override' }).click();
    await page.getByText('The rejection is overridden.').waitFor();

    expect(await page.locator('#case-status').innerText()).toBe('finance_accepted');
    expect(await page.locator('table[aria-label="History"] tbody tr').first().innerText()).toContain('Guarantor signed');
    expect((await (await Ops.as('viewer')).get(`/ops/v1/cases/${caseId}`)).json.status).toBe('finance_accepted');
  });
});
