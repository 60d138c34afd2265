import { Browser, chromium } from 'playwright-core';

/** Debian's Chromium, headless, with nothing that would reach the internet (no download, no sync). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
}

/** The suite's Chromium: launched before its tests (`started` hands it to the suite), closed after them. */
export function withChromium(started: (browser: Browser) => void): void {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
    started(browser);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
}
