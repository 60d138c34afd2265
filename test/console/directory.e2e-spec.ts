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

const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

/** A SCIM token made in the console's SCIM page, read from its shown-once field. */
async function newScimToken(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'New token' }).click();
  await page.getByLabel('Label').fill('Okta');
  await page.getByRole('button', { name: 'Create' }).click();
  const field = page.getByLabel('New token value');
  await field.waitFor();
  return field.inputValue();
}

describe('console directory page and test SP button in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let session: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    t = await createTestApp();
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

  it('lists a SCIM-pushed person, finds them by search, opens their groups and audit trail, and adds a user by hand', async () => {
    const workspaceId = await signUpWithWorkspace(page, 'Directory demo');
    const token = await newScimToken(page);
    const email = uniqueEmail('ada');
    const pushed = await t
      .http()
      .post('/scim/v2/Users')
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/scim+json')
      .send({ schemas: [SCIM_USER], userName: email, name: { givenName: 'Ada', familyName: 'Lovelace' }, active: true })
      .expect(201);
    await t
      .http()
      .post('/scim/v2/Groups')
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/scim+json')
      .send({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: 'Engineering',
        members: [{ value: pushed.body.id }],
      })
      .expect(201);
    const other = uniqueEmail('bob');
    await t
      .http()
      .post('/scim/v2/Users')
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/scim+json')
      .send({ schemas: [SCIM_USER], userName: other, name: { givenName: 'Bob', familyName: 'Other' }, active: true })
      .expect(201);

    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Directory', exact: true }).click();
    await page.getByRole('heading', { name: 'Directory', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/w/${workspaceId}/directory`);
    const people = page.getByRole('table', { name: 'People' });
    await people.getByRole('button', { name: email }).waitFor();
    await people.getByRole('button', { name: other }).waitFor();
    const adaRow = people.getByRole('row').filter({ hasText: email });
    expect(await adaRow.textContent()).toContain('Ada Lovelace');
    expect(await adaRow.textContent()).toContain('active');
    await expectAccessible(page);
    await page.screenshot({ path: shot('console-directory.png'), fullPage: true });

    await page.getByRole('searchbox', { name: 'Search' }).fill(email);
    await page.getByRole('button', { name: 'Find' }).click();
    await people.getByRole('button', { name: other }).waitFor({ state: 'detached' });
    await people.getByRole('button', { name: email }).waitFor();

    await page.getByRole('button', { name: 'Groups' }).click();
    const groups = page.getByRole('table', { name: 'Groups' });
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.getByRole('button', { name: 'Find' }).click();
    const engineering = groups.getByRole('row').filter({ hasText: 'Engineering' });
    await engineering.waitFor();
    expect(await engineering.getByRole('cell').nth(1).textContent()).toBe('1');
    await page.getByRole('button', { name: 'People' }).click();

    await people.getByRole('button', { name: email }).click();
    const drawer = page.getByRole('dialog', { name: email });
    await drawer.getByRole('listitem').filter({ hasText: 'Engineering' }).waitFor();
    await drawer.getByText('No live session.').waitFor();
    await drawer.getByText('Authenticator app: none').waitFor();
    await drawer.getByRole('table', { name: 'Audit trail' }).getByRole('row').filter({ hasText: 'scim_user_create' }).waitFor();
    await expectAccessible(page);
    await drawer.getByRole('button', { name: 'Close' }).click();

    const added = uniqueEmail('hopper');
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByLabel('Email').fill(added);
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.getByRole('button', { name: 'Find' }).click();
    await people.getByRole('button', { name: added }).waitFor();
    const addedRow = people.getByRole('row').filter({ hasText: added });
    expect(await addedRow.textContent()).toContain('Grace Hopper');

    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByLabel('Email').fill(added);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('alert').first().waitFor();

    // The audit log names the token and the person beside their ids.
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Audit log', exact: true }).click();
    const provisioned = page
      .getByRole('table', { name: 'Audit events' })
      .getByRole('row')
      .filter({ hasText: 'scim_user_create' })
      .filter({ hasText: email });
    await provisioned.waitFor();
    expect(await provisioned.textContent()).toContain('Okta');
    expect(session.problems).toEqual([]);
  });

  it('registers the built-in test SP in one click and links to a sign-in there', async () => {
    const workspaceId = await signUpWithWorkspace(page, 'SAML demo');
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'SAML', exact: true }).click();
    await page.getByRole('heading', { name: 'SAML single sign-on' }).waitFor();
    await page.getByRole('button', { name: 'Register the test SP' }).click();
    const start = page.getByRole('link', { name: 'Sign in at the test SP' });
    await start.waitFor();
    expect(await start.getAttribute('href')).toBe(`${t.baseUrl}/saml/test-sp/start?workspace_id=${workspaceId}`);
    const sps = page.getByRole('table', { name: 'Service providers' });
    await sps
      .getByRole('row')
      .filter({ hasText: `${t.baseUrl}/saml/test-sp/${workspaceId}` })
      .waitFor();
    await expectAccessible(page);

    // The link starts a real SP-initiated sign-in: the AuthnRequest reaches this IdP's sign-in page.
    const started = await t.http().get(`/saml/test-sp/start?workspace_id=${workspaceId}`);
    expect(started.status).toBe(302);
    expect(started.headers.location).toContain('SAMLRequest=');
    expect(session.problems).toEqual([]);
  });
});
