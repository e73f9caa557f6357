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

/** What the browser refused by the page's Content-Security-Policy (an inline style or script without its hash, say). */
const policyViolations: string[] = [];

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  phone = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  // With JavaScript off no securitypolicyviolation event runs; the browser still reports each refusal on its console.
  phone.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/.test(message.text())) policyViolations.push(message.text());
  });
  owner = await newPartner();
}, 60_000);

afterEach(() => {
  expect(policyViolations.splice(0)).toEqual([]);
});

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
  it("when the customer opens the link on a phone and accepts, then the page confirms it and the partner's case is in finance_review", async () => {
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
    expect(quote.json.quoteFeedbacks.map((feedback: { text: string; action: string }) => [feedback.action, feedback.text])).toEqual([
      ['request_changes', 'Please 48 months instead of 36.'],
    ]);
    await page.close();
  });

  it('when the customer uploads a requested document on the page, then the request is answered', async () => {
    const { caseId, url } = await sentLink();
    const [item] = await requestItems(sharedStack(), owner.partner.id, caseId, 'document', [
      { label: 'Company register extract', category: 'business_registration', targetAudience: 'customer' },
    ]);
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
    expect(((await customerView.json()) as { requestedItems: { id: number; status: string }[] }).requestedItems).toEqual([
      expect.objectContaining({ id: item?.id, status: 'provided' }),
    ]);
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

  it('when the page is served, then its Content-Security-Policy allows only its own hashed style and its forms, and it refuses framing', async () => {
    const { url } = await sentLink();
    const pages = [
      await fetch(url),
      await fetch(`${sharedStack().gatewayUrl}/c/${'A'.repeat(43)}`),
      await fetch(`${url}/feedback`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=request_changes' }),
    ];
    expect(pages.map((response) => response.status)).toEqual([200, 404, 422]);
    for (const response of pages) {
      const policy = (response.headers.get('content-security-policy') ?? '').split(/;\s*/);
      expect(policy).toEqual(
        expect.arrayContaining(["default-src 'self'", "frame-ancestors 'none'", "form-action 'self'", "base-uri 'none'", "object-src 'none'"]),
      );
      expect(policy.find((directive) => directive.startsWith('style-src'))).toMatch(/^style-src 'sha256-[A-Za-z0-9+/]{43}='$/);
      expect(policy.some((directive) => directive.startsWith('script-src'))).toBe(false);
      expect(policy.join(';')).not.toContain('unsafe-inline');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('when the customer answers a question on the page without JavaScript, then the answer is stored and the question leaves the page', async () => {
    const { caseId, url } = await sentLink();
    const [item] = await requestItems(sharedStack(), owner.partner.id, caseId, 'information', [
      { label: 'Employees', category: 'other', question: 'How many people work at your company?', targetAudience: 'customer' },
    ]);
    const page = await phone.newPage();
    await page.goto(url);
    await expect(page.getByRole('heading', { name: 'Questions for you' }).count()).resolves.toBe(1);
    await expectAccessibleLayout(page);

    await page.getByRole('button', { name: 'Send the answer' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Write an answer to the question.');
    await expect(page.getByLabel('How many people work at your company?').getAttribute('aria-invalid')).resolves.toBe('true');

    await page.getByLabel('How many people work at your company?').fill('Twelve, and two apprentices.');
    await page.getByRole('button', { name: 'Send the answer' }).click();
    await page.waitForURL(/\?done=answered$/);
    await expect(page.getByRole('status').textContent()).resolves.toContain('your answer was sent');
    await expect(page.getByLabel('How many people work at your company?').count()).resolves.toBe(0);
    const customerView = await fetch(`${sharedStack().gatewayUrl}/customer/v1/quotes/${tokenOf(url)}`);
    expect(((await customerView.json()) as { requestedItems: unknown[] }).requestedItems).toEqual([
      expect.objectContaining({ id: item?.id, question: 'How many people work at your company?', status: 'provided' }),
    ]);
    await page.close();
  });

  it('when the answer form is posted over plain HTTP, then 303 back to the page; an empty answer, a NUL or an unknown question is a page naming the field', async () => {
    const { caseId, url } = await sentLink();
    const [item] = await requestItems(sharedStack(), owner.partner.id, caseId, 'information', [
      { label: 'VAT', category: 'other', question: 'What is your VAT number?', targetAudience: 'customer' },
    ]);
    const post = (id: unknown, response: string) =>
      fetch(`${url}/information/${id}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ response }).toString(),
        redirect: 'manual',
      });

    const empty = await post(item?.id, '   ');
    expect([empty.status, empty.headers.get('content-type')]).toEqual([422, 'text/html; charset=utf-8']);
    expect(await empty.text()).toContain(`<a href="#answer-${item?.id}">Write an answer to the question.</a>`);
    const withNul = await post(item?.id, 'DE\u0000123');
    expect(withNul.status).toBe(422);
    expect(await withNul.text()).toContain(`<a href="#answer-${item?.id}">The answer cannot contain a NUL character; remove it and send again.</a>`);
    const unknown = await post(2_000_000_000, 'DE123');
    expect([unknown.status, unknown.headers.get('location')]).toEqual([303, `/c/${tokenOf(url)}?error=answer_closed`]);

    const answered = await post(item?.id, 'DE123456789');
    expect([answered.status, answered.headers.get('location')]).toEqual([303, `/c/${tokenOf(url)}?done=answered`]);
    const again = await post(item?.id, 'DE987654321');
    expect([again.status, again.headers.get('location')]).toEqual([303, `/c/${tokenOf(url)}?error=answer_closed`]);
    const customerView = await fetch(`${sharedStack().gatewayUrl}/customer/v1/quotes/${tokenOf(url)}`);
    expect(((await customerView.json()) as { requestedItems: unknown[] }).requestedItems).toEqual([
      expect.objectContaining({ id: item?.id, status: 'provided' }),
    ]);
    const gone = await fetch(`${sharedStack().gatewayUrl}/c/${'A'.repeat(43)}/information/${item?.id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'response=x',
      redirect: 'manual',
    });
    expect(gone.status).toBe(404);
  });
});
