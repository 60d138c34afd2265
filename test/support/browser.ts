import { Browser, chromium } from 'playwright-core';

/**
 * How long one Playwright step (a click, a navigation, a waitFor) may wait for its condition. Twice
 * Playwright's 30 s: a ceiling against a page that never shows what is awaited, generous enough for a
 * loaded machine where the service and Chromium share a tenth of a core.
 */
export const BROWSER_STEP_CEILING_MS = 60_000;

/**
 * Debian's Chromium, headless, with nothing that would reach the internet (no download, no sync). Every
 * context opened on it waits up to BROWSER_STEP_CEILING_MS per step.
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  browser.on('context', (context) => {
    context.setDefaultTimeout(BROWSER_STEP_CEILING_MS);
    context.setDefaultNavigationTimeout(BROWSER_STEP_CEILING_MS);
  });
  return browser;
}

/** The suite's Chromium: launched before its tests (`started` hands it to the suite), closed after them. */
export function withChromium(started: (browser: Browser) => void): void {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
    started(browser);
  });
  afterAll(async () => {
    await browser?.close();
  });
}
