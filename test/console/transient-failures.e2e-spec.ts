import type { Browser, Page, Response } from 'playwright-core';
import type { QueryRunner } from 'typeorm';
import { createTestApp, TestApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectAccessible, openConsole, signUpWithWorkspace, type ConsoleBrowser } from './support';

/** The screenshots for docs/console.md: written to docs/images with UPDATE_SCREENSHOTS=1, else to a temporary file. */
const shot = (name: string) =>
  process.env.UPDATE_SCREENSHOTS ? join(__dirname, '..', '..', 'docs', 'images', name) : join(tmpdir(), `${process.pid}-${name}`);

/**
 * Every connection of the service's pool, taken by the test: the service's next request waits for one until the
 * pool gives up and answers 503 with Retry-After (what a busy zero-config instance, whose pool is one connection,
 * answers under load). `release` gives them back.
 */
async function holdThePool(t: TestApp): Promise<{ release: () => Promise<void> }> {
  const size = Number(t.config.DATABASE_POOL_SIZE);
  const runners: QueryRunner[] = [];
  for (let i = 0; i < size; i++) {
    const runner = t.dataSource.createQueryRunner();
    await runner.connect();
    runners.push(runner);
  }
  return { release: () => Promise.all(runners.map((r) => r.release())).then(() => undefined) };
}

const listAnswered = (status: number) => (r: Response) =>
  new URL(r.url()).pathname === '/developer/oauth/clients/' && r.request().method() === 'GET' && r.status() === status;

/**
 * A list whose load fails for a moment (the service cannot get a database connection in time) loads again on its
 * own once, after the pause the service asked for; when that fails too, the error says so with a Try again button.
 * Decision 0940.
 */
describe('console lists when the service is briefly unavailable, in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let session: ConsoleBrowser;

  beforeAll(async () => {
    t = await createTestApp();
    browser = await launchChromium();
    session = await openConsole(browser, t.baseUrl);
  });
  afterAll(async () => {
    await session?.context.close();
    await browser?.close();
    await t?.close();
  });

  /** Leaves the Applications page and comes back to it while the test holds the service's pool. */
  async function backToApplicationsWithThePoolHeld(page: Page) {
    const nav = page.getByRole('navigation', { name: 'Workspace' });
    await nav.getByRole('link', { name: 'Members', exact: true }).click();
    await page.getByRole('heading', { name: 'Members' }).waitFor();
    const pool = await holdThePool(t);
    await nav.getByRole('link', { name: 'Applications', exact: true }).click();
    return pool;
  }

  it('loads the Applications list again after a 503, and offers Try again after a second one', async () => {
    const { page } = session;
    await signUpWithWorkspace(page, 'Acme');
    const nav = page.getByRole('navigation', { name: 'Workspace' });
    await nav.getByRole('link', { name: 'Applications', exact: true }).click();
    await page.getByRole('button', { name: 'New application' }).click();
    await page.getByLabel('Name').fill('Acme Notes');
    await page.getByLabel('Redirect URIs').fill('https://notes.example.test/callback');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('region', { name: 'Shown once' }).getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('table', { name: 'Applications' }).getByRole('row').filter({ hasText: 'Acme Notes' });
    await row.waitFor();

    // Once: the console waits the Retry-After the service sent and loads again; the person never sees an error.
    let pool = await backToApplicationsWithThePoolHeld(page);
    const refused = await page.waitForResponse(listAnswered(503));
    expect(refused.headers()['retry-after']).toBe('5');
    const retried = page.waitForResponse(listAnswered(200));
    await pool.release();
    await retried;
    await row.waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);

    // Twice: the error shows, with a button that loads the list again.
    pool = await backToApplicationsWithThePoolHeld(page);
    const alert = page.getByRole('alert');
    try {
      await alert.getByRole('button', { name: 'Try again' }).waitFor();
      expect(await alert.textContent()).toContain('temporarily unavailable');
      expect(await row.count()).toBe(0);
      await expectAccessible(page);
      await page.screenshot({ path: shot('console-load-failed.png') });
      const desktop = page.viewportSize();
      await page.setViewportSize({ width: 375, height: 740 });
      await page.screenshot({ path: shot('console-load-failed-narrow.png') });
      if (desktop) await page.setViewportSize(desktop);
    } finally {
      await pool.release();
    }
    await alert.getByRole('button', { name: 'Try again' }).click();
    await row.waitFor();
    expect(await alert.count()).toBe(0);
    expect(session.problems).toEqual([]);
  }, 180_000);
});
