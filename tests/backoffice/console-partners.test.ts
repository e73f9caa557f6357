import os from 'node:os';
import path from 'node:path';
import { Browser, BrowserContext, Page, chromium } from 'playwright-core';
import { ownPartner } from '../support/partners';
import { Ops, Role, operatorWith, sharedStack } from './support/kit';

// Debian's chromium; nothing downloads a browser. The screenshot goes to docs/ when asked for.
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = process.env.SAVE_CONSOLE_SCREENSHOTS ? path.resolve(__dirname, '..', '..', 'docs') : os.tmpdir();

describe("the console's Partners page (headless chromium)", () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const policyViolations: string[] = [];

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterEach(() => {
    expect(policyViolations.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser.close();
  });

  async function signedIn(role: Role): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    context.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/.test(message.text())) policyViolations.push(message.text());
    });
    await context.addInitScript(
      `document.addEventListener('securitypolicyviolation', (event) => console.error('Content Security Policy violation: ' + event.violatedDirective + ' ' + event.blockedURI))`,
    );
    const page = await context.newPage();
    const operator = operatorWith(role);
    await page.goto(`${sharedStack().gatewayUrl}/console`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail').fill(operator.email);
    await page.getByLabel('Password').fill(operator.password);
    await page.getByRole('button', { name: 'Sign in' }).press('Enter');
    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    return page;
  }

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
