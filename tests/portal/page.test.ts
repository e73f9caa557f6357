import path from 'node:path';
import type { Page } from 'playwright-core';
import { screenshotDirectory, useWatchedBrowser } from '../support/browser';
import { type PartnerUser, portalPartner, sharedStack, userWith } from './support/kit';

const SCREENSHOTS = screenshotDirectory('SAVE_PORTAL_SCREENSHOTS');
const PHONE = { width: 390, height: 844 };

describe('partner portal page (headless chromium)', () => {
  const browser = useWatchedBrowser();
  const gateway = () => sharedStack().gatewayUrl;

  async function signedIn(user: PartnerUser, viewport?: { width: number; height: number }): Promise<Page> {
    const context = await browser().newContext(viewport);
    const page = await context.newPage();
    await page.goto(`${gateway()}/portal`);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).press('Enter');
    await page.getByRole('heading', { name: /API keys/ }).waitFor();
    return page;
  }

  it('when the page is served, then its policy allows only its own files and no frame', async () => {
    const response = await fetch(`${gateway()}/portal/keys`);
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy.split('; ')).toEqual(expect.arrayContaining(["default-src 'self'", "frame-ancestors 'none'"]));
    expect(policy).not.toMatch(/unsafe-inline|sha256-/);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(await response.text()).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });

  it('when a developer signs in with the password, then it creates a key shown once with a copy button, rolls and revokes keys', async () => {
    const { partner } = await portalPartner();
    const page = await signedIn(userWith(partner.users, 'developer'));
    await page.getByLabel('Name').fill('Checkout service');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.locator('#secret-value');
    await shown.waitFor();
    const key = await shown.textContent();
    expect(key).toMatch(/^sbx_[A-Za-z0-9]{40}$/);
    await page.getByText('it will not be shown again').waitFor();
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'portal-keys.png'), fullPage: true });

    const row = page.getByRole('row').filter({ hasText: 'Checkout service' });
    await row.getByLabel('Old key stops').selectOption('3600');
    await row.getByRole('button', { name: 'Roll' }).click();
    await page.getByText('New key Checkout service').waitFor();
    expect(await page.locator('#secret-value').textContent()).not.toBe(key);
    await page.getByRole('row').filter({ hasText: 'expiring' }).first().waitFor();

    page.once('dialog', (dialog) => dialog.accept());
    await page.getByRole('row').filter({ hasText: 'expiring' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('row').filter({ hasText: 'revoked' }).first().waitFor();
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('cell', { name: 'api_key.revoked' }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'portal-audit.png'), fullPage: true });
  });

  it('when a viewer signs in at phone width, then it reads keys, webhooks and audit without a single change offered, and nothing is wider than the screen', async () => {
    const { partner, api } = await portalPartner();
    await api.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/hooks/page' });
    const page = await signedIn(userWith(partner.users, 'viewer'), PHONE);
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Roll|Revoke/ }).count()).toBe(0);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('https://93.184.216.34/hooks/page').waitFor();
    expect(await page.getByRole('button', { name: /Add endpoint|Delete|Rotate secret|Send test event|Pause/ }).count()).toBe(0);
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'portal-webhooks-phone.png'), fullPage: true });
  });

  it('when a developer manages webhooks on the page, then it adds an endpoint (secret shown once), sends a test event and sees the delivery', async () => {
    const { partner } = await portalPartner();
    const page = await signedIn(userWith(partner.users, 'developer'), PHONE);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('HTTPS URL').fill('https://93.184.216.34/hooks/from-page');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.locator('#secret-value').textContent()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('webhook_endpoint.test').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'portal-webhooks-developer-phone.png'), fullPage: true });
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
