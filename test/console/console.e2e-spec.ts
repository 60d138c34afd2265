import type { Browser, Page } from 'playwright-core';
import { createTestApp, TestApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { eventually } from '../support/eventually';
import { uniqueEmail } from '../support/factories';
import { expectAccessible, openConsole, type ConsoleBrowser } from './support';

const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

/** Signs up a new developer in the console and lands on the workspace list. */
async function signUp(page: Page, name = 'Ada Developer'): Promise<{ email: string; password: string }> {
  const email = uniqueEmail('console');
  const password = 'correct horse battery';
  await page.goto('/console/');
  await page.getByRole('link', { name: 'Sign up' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  return { email, password };
}

async function newWorkspace(page: Page, name: string): Promise<string> {
  await page.getByRole('button', { name: 'New workspace' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('heading', { name: 'SCIM provisioning' }).waitFor();
  const match = /\/console\/w\/([0-9a-f-]{36})\//.exec(page.url());
  if (!match) throw new Error(`not on a workspace page: ${page.url()}`);
  return match[1];
}

describe('developer console in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let session: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    t = await createTestApp();
    browser = await launchChromium();
  }, 60_000);
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

  it('serves the console with a strict CSP, and deep links reload to the app', async () => {
    const index = await t.http().get('/console/w/00000000-0000-4000-8000-000000000000/audit').expect(200);
    expect(index.headers['content-type']).toMatch(/text\/html/);
    expect(index.headers['content-security-policy']).toContain("script-src 'self'");
    expect(index.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(index.text).toContain('<div id="root">');
    await t.http().get('/console').expect(301).expect('Location', '/console/');
    await t.http().get('/console/assets/missing.js').expect(404);
    const landing = await t.http().get('/').expect(200);
    expect(landing.text).toContain('href="/console/"');
  });

  it('sign up → workspace → SCIM token copied → a SCIM call provisions a user → audit log shows it → revoke → 401', async () => {
    await signUp(page);
    await expectAccessible(page);
    const workspaceId = await newWorkspace(page, 'Acme production');
    await expect(page.getByRole('link', { name: 'SCIM' })).toBeDefined();
    for (const name of ['SCIM', 'SAML', 'Applications', 'Audit log', 'Webhooks', 'Databases', 'Members', 'Email templates']) {
      await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name, exact: true }).waitFor();
    }

    await page.getByRole('button', { name: 'New token' }).click();
    await page.getByLabel('Label').fill('Okta production');
    await page.getByRole('button', { name: 'Create' }).click();
    const field = page.getByLabel('New token value');
    await field.waitFor();
    expect(await field.getAttribute('readonly')).not.toBeNull();
    await page.getByRole('region', { name: 'Shown once' }).getByRole('button', { name: 'Copy' }).click();
    const token = await page.evaluate(() => navigator.clipboard.readText());
    expect(token).toMatch(/^scim_/);
    expect(await field.inputValue()).toBe(token);
    await expectAccessible(page);

    const userName = uniqueEmail('ada');
    const created = await t
      .http()
      .post('/scim/v2/Users')
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/scim+json')
      .send({ schemas: [SCIM_USER], userName, name: { givenName: 'Ada', familyName: 'Lovelace' }, active: true })
      .expect(201);

    await page.getByRole('link', { name: 'Audit log' }).click();
    const table = page.getByRole('table', { name: 'Audit events' });
    await table.getByRole('columnheader', { name: 'Time' }).waitFor();
    await table.getByRole('columnheader', { name: 'Event' }).waitFor();
    const row = table.getByRole('row').filter({ hasText: 'scim_user_create' });
    await eventually(
      async () => {
        if ((await row.count()) === 0) {
          await page.reload();
          await table.waitFor();
        }
        await row.first().waitFor({ timeout: 1000 });
      },
      { timeoutMs: 15_000 },
    );
    await row.first().getByRole('button').click();
    const drawer = page.getByRole('dialog');
    await drawer.getByText(String(created.body.id)).first().waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(/Chain intact: \d+ events? verified/).waitFor();
    await expectAccessible(page);

    await page.getByRole('link', { name: 'SCIM' }).click();
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page
      .getByText(/revoked/)
      .first()
      .waitFor();
    await t.http().get('/scim/v2/Users').set('Authorization', `Bearer ${token}`).expect(401);
    expect(workspaceId).toMatch(/[0-9a-f-]{36}/);
    expect(session.problems).toEqual([]);
  });
});
