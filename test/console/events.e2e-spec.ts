import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createTestApp, TestApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { uniqueEmail } from '../support/factories';
import { expectAccessible, openConsole, signUpWithWorkspace, type ConsoleBrowser } from './support';

/** The screenshot for docs/console.md: written to docs/images with UPDATE_SCREENSHOTS=1, else to a temporary file. */
const shot = (name: string) =>
  process.env.UPDATE_SCREENSHOTS ? join(__dirname, '..', '..', 'docs', 'images', name) : join(tmpdir(), `${process.pid}-${name}`);

const SCIM_JSON = 'application/scim+json';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

describe('console events page in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let session: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    t = await createTestApp({ DIRECTORY_EVENTS_SEAL_INTERVAL_MS: '50' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  beforeEach(async () => {
    session = await openConsole(browser, t.baseUrl);
    page = session.page;
  });
  afterEach(async () => {
    await session.context.close();
  });

  it('shows the feed oldest first, opens an event’s data, filters by type and loads more', async () => {
    await signUpWithWorkspace(page, 'Events demo');
    await page.getByRole('button', { name: 'New token' }).click();
    await page.getByLabel('Label').fill('Okta');
    await page.getByRole('button', { name: 'Create' }).click();
    const field = page.getByLabel('New token value');
    await field.waitFor();
    const token = await field.inputValue();
    const scim = (method: 'post' | 'patch', path: string, body: unknown) =>
      t.http()[method](`/scim/v2${path}`).set('Authorization', `Bearer ${token}`).set('Content-Type', SCIM_JSON).send(JSON.stringify(body));

    const ada = uniqueEmail('ada');
    const adaId = (
      await scim('post', '/Users', {
        schemas: [USER],
        userName: ada,
        name: { givenName: 'Ada', familyName: 'Byron' },
        active: true,
      }).expect(201)
    ).body.id as string;
    await scim('post', '/Groups', { schemas: [GROUP], displayName: 'Engineering', members: [{ value: adaId }] }).expect(201);
    await scim('patch', `/Users/${adaId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', path: 'name.familyName', value: 'Lovelace' }],
    }).expect(200);
    await scim('patch', `/Users/${adaId}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }).expect(
      200,
    );

    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Events', exact: true }).click();
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Directory events' });
    // Sealed within a second of commit: the page may have loaded before the last one was numbered.
    const deactivated = table.getByRole('row').filter({ hasText: 'directory.user.deactivated' });
    for (let tries = 0; !(await deactivated.count()); tries++) {
      if (tries > 20) throw new Error('the deactivation never showed');
      await page.getByRole('button', { name: 'Show events' }).click();
      await table.getByRole('row').nth(1).waitFor();
    }
    const rows = table.getByRole('row');
    expect(await rows.count()).toBe(1 + 5);
    expect(await rows.nth(1).textContent()).toContain('directory.user.created');
    expect(await rows.nth(1).textContent()).toContain(ada);
    expect(await rows.nth(3).textContent()).toContain(`${ada} in Engineering`);
    const updated = rows.nth(4);
    expect(await updated.textContent()).toContain('changed: name.familyName');
    await expectAccessible(page);

    await updated.getByRole('button', { name: 'Show data of event 4' }).click();
    const data = page.getByRole('region', { name: 'Data of event 4' });
    await data.waitFor();
    expect(await data.textContent()).toContain('"familyName": "Lovelace"');
    expect(await updated.getByRole('button', { name: 'Hide data of event 4' }).getAttribute('aria-expanded')).toBe('true');
    await expectAccessible(page);
    await page.screenshot({ path: shot('console-events.png'), fullPage: true });
    await updated.getByRole('button', { name: 'Hide data of event 4' }).click();
    await data.waitFor({ state: 'detached' });

    await page.getByLabel('Type').selectOption('directory.user.deactivated');
    await page.getByRole('button', { name: 'Show events' }).click();
    await table.getByRole('row').filter({ hasText: 'directory.user.created' }).waitFor({ state: 'detached' });
    expect(await rows.count()).toBe(1 + 1);
    expect(await rows.nth(1).textContent()).toContain('directory.user.deactivated');

    // More than a page: 50 first, the rest on "Load more", in feed order.
    await Promise.all(
      Array.from({ length: 50 }, () =>
        scim('post', '/Users', { schemas: [USER], userName: uniqueEmail('bulk'), active: true }).expect(201),
      ),
    );
    await page.getByLabel('Type').selectOption('');
    await page.getByRole('button', { name: 'Show events' }).click();
    await page.getByRole('button', { name: 'Load more' }).waitFor();
    expect(await rows.count()).toBe(1 + 50);
    await page.getByRole('button', { name: 'Load more' }).click();
    // The last creates may be numbered a moment after the page was read: ask for newer events until they show.
    for (let tries = 0; (await rows.count()) < 1 + 55; tries++) {
      if (tries > 20) throw new Error(`only ${(await rows.count()) - 1} events showed`);
      const newer = page.getByRole('button', { name: 'Check for newer events' });
      await newer.waitFor();
      await newer.click();
      await page.getByRole('button', { name: 'Check for newer events' }).waitFor();
    }
    const positions = (await table.locator('tbody tr > td:first-child').allTextContents()).map(Number);
    expect(positions).toEqual(Array.from({ length: 55 }, (_, i) => i + 1));
    await page.getByRole('status').filter({ hasText: 'Up to date at position 55' }).waitFor();
    await expectAccessible(page);
    expect(session.problems).toEqual([]);
  });
});
