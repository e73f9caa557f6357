import path from 'node:path';
import type { Page } from 'playwright-core';
import { screenshotDirectory, useWatchedBrowser } from '../support/browser';
import { ownPartner } from '../support/partners';
import { Ops, Role, consolePageAs, sharedStack } from './support/kit';

const SCREENSHOTS = screenshotDirectory('SAVE_CONSOLE_SCREENSHOTS');

describe("the console's Partners page (headless chromium)", () => {
  const browser = useWatchedBrowser();
  const signedIn = (role: Role): Promise<Page> => consolePageAs(browser(), role);

  it('when an approver finds a partner, then suspending with a reason stops its keys, revoking a key marks it revoked, and reactivating brings the keys back', async () => {
    const { partner, api } = await ownPartner();
    const page = await signedIn('approver');

    await page.getByRole('link', { name: 'Partners' }).click();
    await page.getByRole('heading', { name: 'Partners' }).waitFor();
    await page.getByLabel('Search').fill(partner.id);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('link', { name: /Acme Office Solutions/ }).click();
    await page.locator('#partner-status').waitFor();
    expect(await page.locator('#partner-status').textContent()).toBe('active');
    expect(await page.getByRole('table', { name: 'Rental factors' }).textContent()).toContain('36: 3.18');

    const suspend = page.locator('form[data-partner-action="suspend"]');
    await suspend.getByLabel('Reason').fill('chargebacks under review');
    await suspend.getByRole('button', { name: 'Suspend' }).click();
    await page.getByText('The partner is suspended').waitFor();
    expect(await page.locator('#partner-status').textContent()).toBe('suspended');
    const refused = await api.get('/api/product-sectors');
    expect([refused.status, refused.json.type]).toEqual([401, expect.stringMatching(/partner\.suspended$/)]);

    const seedKeyRow = page.locator('tr', { has: page.locator('td', { hasText: /^Seed key$/ }) });
    await seedKeyRow.getByLabel(/Reason to revoke/).fill('posted in a public repository');
    await seedKeyRow.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('The key is revoked.').waitFor();
    expect(
      await page
        .locator('tr', { has: page.locator('td', { hasText: /^Seed key$/ }) })
        .locator('.status')
        .textContent(),
    ).toBe('revoked');

    const reactivate = page.locator('form[data-partner-action="reactivate"]');
    await reactivate.getByLabel('Reason').fill('review done');
    await reactivate.getByRole('button', { name: 'Reactivate' }).click();
    await page.getByText('The partner is active again.').waitFor();
    expect((await api.withKey(partner.readOnlyKey).get('/api/product-sectors')).status).toBe(200);
    expect(await page.getByRole('table', { name: 'Audit' }).textContent()).toContain('chargebacks under review');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'console-partner.png'), fullPage: true });
  });

  it('when a viewer opens a partner, then keys and conditions are shown but no change is offered', async () => {
    const { partner } = await ownPartner();
    const page = await signedIn('viewer');

    await page.goto(`${sharedStack().gatewayUrl}/console/partners/${partner.id}`);
    await page.getByRole('table', { name: 'API keys' }).waitFor();

    expect(await page.getByRole('button', { name: /Suspend|Revoke|Create key|Save conditions/ }).count()).toBe(0);
    expect(await page.getByRole('table', { name: 'API keys' }).locator('tbody tr').count()).toBe(2);
    expect(await page.content()).not.toContain(partner.key);
    expect((await (await Ops.as('viewer')).get(`/ops/v1/partners/${partner.id}`)).json.status).toBe('active');
  });
});
