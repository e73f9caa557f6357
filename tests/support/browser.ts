import os from 'node:os';
import path from 'node:path';
import { Browser, BrowserContext, chromium } from 'playwright-core';

/** Debian's chromium; nothing downloads a browser. */
const CHROMIUM = '/usr/bin/chromium';

/** Where a page test's screenshots go: docs/ when `variable` is set, else a temporary folder. */
export const screenshotDirectory = (variable: string) => (process.env[variable] ? path.resolve(__dirname, '..', '..', 'docs') : os.tmpdir());

/**
 * A headless chromium for a page test: contexts that report whatever the page's
 * Content-Security-Policy refuses (`takeViolations`, asserted empty after each test), closed together.
 */
export class WatchedBrowser {
  private readonly contexts: BrowserContext[] = [];
  private readonly violations: string[] = [];

  private constructor(private readonly browser: Browser) {}

  static async launch(): Promise<WatchedBrowser> {
    return new WatchedBrowser(await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }));
  }

  async newContext(viewport = { width: 1280, height: 900 }): Promise<BrowserContext> {
    const context = await this.browser.newContext({ viewport });
    this.contexts.push(context);
    context.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/.test(message.text())) this.violations.push(message.text());
    });
    // Runs outside the page's policy; reports every violation the page's own scripts would see too.
    await context.addInitScript(
      `document.addEventListener('securitypolicyviolation', (event) => console.error('Content Security Policy violation: ' + event.violatedDirective + ' ' + event.blockedURI))`,
    );
    return context;
  }

  /** The violations reported since the last call. */
  takeViolations(): string[] {
    return this.violations.splice(0);
  }

  async close(): Promise<void> {
    await Promise.all(this.contexts.map((context) => context.close()));
    await this.browser.close();
  }
}

/**
 * The suite's browser: launched before its tests, closed after them; after each test, whatever
 * the page's Content-Security-Policy refused fails it.
 */
export function useWatchedBrowser(): () => WatchedBrowser {
  let browser: WatchedBrowser | undefined;
  beforeAll(async () => {
    browser = await WatchedBrowser.launch();
  });
  afterEach(() => {
    expect(browser?.takeViolations()).toEqual([]);
  });
  afterAll(() => browser?.close());
  return () => {
    if (!browser) throw new Error('the browser is not launched');
    return browser;
  };
}
