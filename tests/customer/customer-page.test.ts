import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Browser, BrowserContext, chromium } from 'playwright-core';
import { Owner, newPartner, sharedStack } from '../case-workflow/support/kit';
import { PDF_FILE, quoteInProgress, requestItems, tokenOf } from './support/customer-kit';

// The customer's page in a real headless browser (Debian's chromium, driven by playwright-core),
// with JavaScript off: accept and feedback are plain forms, the page is laid out for a phone.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let browser: Browser;
let phone: BrowserContext;
let owner: Owner;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  phone = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  owner = await newPartner();
}, 60_000);

afterAll(async () => {
  await phone?.close();
  await browser?.close();
});

async function sentLink(): Promise<{ caseId: string; quoteId: string; url: string }> {
  const { caseId, quoteId } = await quoteInProgress(owner, sharedStack());
  const sent = await owner.api.post(`/api/financing_cases/${caseId}/send-to-customer`, {});
  expect(sent.status).toBe(200);
  return { caseId, quoteId, url: sent.json.customerUrl };
}

/** Every form field has a label, the page says its language and fits the phone's width. */
async function expectAccessibleLayout(page: import('playwright-core').Page): Promise<void> {
  // Runs in the page; a string, because these tests compile without the DOM's types.
  const facts = await page.evaluate(`({
    lang: document.documentElement.lang,
    unlabeled: [...document.querySelectorAll('input:not([type=hidden]), textarea, select')].filter((field) => !field.labels || field.labels.length === 0).length,
    overflow: document.documentElement.scrollWidth > window.innerWidth,
    h1: document.querySelectorAll('h1').length,
  })`);
  expect(facts).toEqual({ lang: 'en', unlabeled: 0, overflow: false, h1: 1 });
}

describe('the customer page', () => {
  it('when the customer opens the link on a phone and accepts, then the page confirms it and the partner\'s case is in finance_review', async () => {
    const { caseId, url } = await sentLink();
    const page = await phone.newPage();
    const opened = await page.goto(url);
    expect(opened?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toMatch(/^Your offer Q-\d{4}-\d{6}$/);
    await expect(page.locator('#status').getAttribute('data-status')).resolves.toBe('in_review');
    await expect(page.getByText('34.30 EUR').count()).resolves.toBe(1);
    await expectAccessibleLayout(page);
    await page.screenshot({ path: path.join(os.tmpdir(), 'customer-page.png'), fullPage: true });
    expect(fs.statSync(path.join(os.tmpdir(), 'customer-page.png')).size).toBeGreaterThan(10_000);

    await page.getByRole('button', { name: 'Accept the offer' }).click();
    await page.waitForURL(/\?done=accepted$/);
    await expect(page.getByRole('status').textContent()).resolves.toContain('you accepted the offer');
    await expect(page.locator('#status').getAttribute('data-status')).resolves.toBe('finance_review');
    await expect(page.getByRole('button', { name: 'Accept the offer' }).count()).resolves.toBe(0);
    expect((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status).toBe('finance_review');
    await page.close();
  });

  it('when the customer asks for changes without a text, then the error is summarised at the top; with a text, the partner sees it in quoteFeedbacks', async () => {
    const { quoteId, url } = await sentLink();
    const page = await phone.newPage();
    await page.goto(url);
    await page.getByRole('button', { name: 'Ask for changes' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Tell your dealer what should change.');
    await expect(page.locator('main > *').first().getAttribute('id')).resolves.toBe('errors');
    await expect(page.getByLabel(/What should change/).getAttribute('aria-invalid')).resolves.toBe('true');
    await expectAccessibleLayout(page);

    await page.getByLabel(/What should change/).fill('Please 48 months instead of 36.');
    await page.getByRole('button', { name: 'Ask for changes' }).click();
    await page.waitForURL(/\?done=changes_requested$/);
    await expect(page.locator('#status').getAttribute('data-status')).resolves.toBe('change_requested');
    const quote = await owner.api.get(`/api/quotes/${quoteId}`);
    expect(quote.json.quoteFeedbacks.map((feedback: { text: string; action: string }) => [feedback.action, feedback.text])).toEqual([['request_changes', 'Please 48 months instead of 36.']]);
    await page.close();
  });

  it('when the customer uploads a requested document on the page, then the request is answered', async () => {
    const { caseId, url } = await sentLink();
    const [item] = await requestItems(sharedStack(), owner.partner.id, caseId, 'document', [{ label: 'Company register extract', category: 'business_registration', targetAudience: 'customer' }]);
    const page = await phone.newPage();
    await page.goto(url);
    await page.getByLabel(/Company register extract/).setInputFiles({ name: 'register.pdf', mimeType: 'application/pdf', buffer: PDF_FILE });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\?done=uploaded$/);
    await expect(page.getByRole('status').textContent()).resolves.toContain('your document was uploaded');
    await expect(page.getByLabel(/Company register extract/).count()).resolves.toBe(0);
    const view = await owner.api.get(`/api/financing-cases/${caseId}/documents`);
    expect(view.json).toEqual([]);
    const customerView = await fetch(`${sharedStack().gatewayUrl}/customer/v1/quotes/${tokenOf(url)}`);
    expect(((await customerView.json()) as { requestedItems: { id: number; status: string }[] }).requestedItems).toEqual([expect.objectContaining({ id: item?.id, status: 'provided' })]);
    await page.close();
  });

  it('when the link no longer works, then a clear page says so instead of an error', async () => {
    const { caseId, url } = await sentLink();
    expect((await owner.api.post(`/api/financing_cases/${caseId}/cancel`)).status).toBe(204);
    const page = await phone.newPage();
    const opened = await page.goto(url);
    expect([opened?.status(), opened?.headers()['content-type']]).toEqual([410, 'text/html; charset=utf-8']);
    await expect(page.locator('h1').textContent()).resolves.toBe('This link has expired');
    await expect(page.locator('main').textContent()).resolves.toContain('ask your dealer to send you a new link');
    const unknown = await page.goto(`${sharedStack().gatewayUrl}/c/${'A'.repeat(43)}`);
    expect(unknown?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('This link does not work');
    await page.close();
  });
});
