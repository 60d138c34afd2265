import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createTestApp, TestApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { eventually } from '../support/eventually';
import { uniqueEmail } from '../support/factories';
import { codeIn, startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { managedEnv } from '../managed-databases/support';
import { WebhookReceiver } from '../webhooks/receiver';
import { expectAccessible, openConsole, type ConsoleBrowser } from './support';

const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
/** Creating, backing up or deleting a real database on the local server: real work, slower under load. */
const PROVISIONING_CEILING_MS = 120_000;

/** Screenshots for docs/console.md: written to docs/images with UPDATE_SCREENSHOTS=1, else to a temporary file. */
const shot = (name: string) =>
  process.env.UPDATE_SCREENSHOTS ? join(__dirname, '..', '..', 'docs', 'images', name) : join(tmpdir(), `${process.pid}-${name}`);

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
  let smtp: SmtpReceiver;
  let browser: Browser;
  let session: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    // Managed PostgreSQL on the local server; MongoDB left unconfigured, so the console must explain it.
    t = await createTestApp(managedEnv({ SMTP_URL: smtp.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', MANAGED_MONGODB_ADMIN_URL: '' }));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.stop();
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

  it('centres the sign-in and sign-up cards in the window, at desktop width and at 375 px', async () => {
    const gaps: Record<string, number> = {};
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 860 });
      for (const [path, heading] of [
        ['/console/signin', 'Sign in'],
        ['/console/signup', 'Create a developer account'],
      ]) {
        await page.goto(path);
        const card = page.locator('section').filter({ has: page.getByRole('heading', { level: 1, name: heading }) });
        await card.waitFor();
        const box = (await card.boundingBox())!;
        const windowWidth = await page.evaluate(() => document.documentElement.clientWidth);
        const left = box.x;
        const right = windowWidth - (box.x + box.width);
        gaps[`${heading} at ${width} px`] = Math.round(Math.abs(left - right));
        if (width === 1280 && heading === 'Sign in') await page.screenshot({ path: shot('console-sign-in.png') });
      }
    }
    expect(gaps).toEqual({
      'Sign in at 1280 px': 0,
      'Create a developer account at 1280 px': 0,
      'Sign in at 375 px': 0,
      'Create a developer account at 375 px': 0,
    });
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
    await page.screenshot({ path: shot('console-scim.png'), fullPage: true });

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
        // Long enough for a loaded machine to render the reloaded page; then reload again.
        await row.first().waitFor({ timeout: 10_000 });
      },
      { timeoutMs: 90_000 },
    );
    await row.first().getByRole('button').click();
    const drawer = page.getByRole('dialog');
    await drawer.getByText(String(created.body.id)).first().waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(/Chain intact: \d+ events? verified/).waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: shot('console-audit.png') });
    await row.first().getByRole('button').click();
    await page.getByRole('dialog').waitFor();
    await page.screenshot({ path: shot('console-audit-drawer.png') });
    await page.keyboard.press('Escape');

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

  it('application → template edit → the next verification mail uses it; SP imported from metadata → the test SP sign-in works', async () => {
    await signUp(page);
    const workspaceId = await newWorkspace(page, 'Notes');

    await page.getByRole('link', { name: 'Applications' }).click();
    await page.getByRole('button', { name: 'New application' }).click();
    await page.getByLabel('Name').fill('Acme Notes');
    await page.getByLabel('Redirect URIs').fill('https://notes.example.com/callback');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByLabel('Client secret').waitFor();
    await page.getByText('it will not be shown again').waitFor();
    const clientId = (await page.getByRole('table', { name: 'Applications' }).locator('code').first().textContent())!.trim();
    expect(clientId).toBeTruthy();
    await expectAccessible(page);

    // A public client (a native app: PKCE, no secret) from the same form; it has no secret to show or rotate.
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'New application' }).click();
    await page.getByLabel('Name').fill('Acme Notes mobile');
    await page.getByLabel('Client type').selectOption({ label: 'Public client (PKCE, no secret)' });
    await page.getByLabel('Redirect URIs').fill('com.example.notes:/callback\nhttp://127.0.0.1/callback');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'com.example.notes:/callback, http://127.0.0.1/callback' }).waitFor();
    expect(await page.getByLabel('Client secret').count()).toBe(0);
    // The type is fixed at creation: editing offers no choice.
    await page.getByRole('button', { name: 'Edit Acme Notes mobile' }).click();
    expect(await page.getByLabel('Client type').count()).toBe(0);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('public, PKCE only').waitFor();
    await page.getByRole('button', { name: 'Rotate secret of Acme Notes', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Rotate secret of Acme Notes mobile' }).count()).toBe(0);
    await expectAccessible(page);
    await page.screenshot({ path: shot('console-applications.png'), fullPage: true });

    await page.getByRole('link', { name: 'Email templates' }).click();
    const subject = page.getByLabel('Subject');
    await subject.waitFor();
    // A placeholder the template does not offer: the server's validation message shows beside the field.
    await page.getByLabel('Body').fill('Hello {{nope}}');
    await page.getByRole('button', { name: 'Save template' }).click();
    const bodyError = page.locator('.field', { has: page.getByLabel('Body') }).locator('.field-error');
    await bodyError.filter({ hasText: 'unknown placeholder {{nope}}' }).waitFor();
    expect(await page.getByLabel('Body').getAttribute('aria-invalid')).toBe('true');
    await subject.fill('Welcome aboard: {{code}}');
    await page.getByLabel('Body').fill('<p>Hi {{first_name}}, your Acme Notes code is <b>{{code}}</b>.</p>');
    await expect(page.getByTestId('preview-subject').textContent()).resolves.toBe('Welcome aboard: 428193');
    await page.getByRole('document', { name: 'Rendered mail' }).getByText('Hi Ada, your Acme Notes code is').waitFor();
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByText('Saved: the next mail uses it.').waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: shot('console-templates.png'), fullPage: true });

    const email = uniqueEmail('enduser');
    const password = 'end user password 1';
    await t.http().post('/e/v1/auth/register/').send({ client_id: clientId, email, password, first_name: 'Grace' }).expect(201);
    const mail = await smtp.waitFor(email);
    expect(mail.subject).toMatch(/^Welcome aboard: \d{6}$/);
    expect(mail.html).toContain('Hi Grace, your Acme Notes code is');
    await t
      .http()
      .post('/e/v1/email/verify/')
      .send({ email, code: codeIn(mail) })
      .expect(200);

    // The built-in test SP, registered from its metadata pasted into the import form.
    const entityId = `${t.baseUrl}/saml/test-sp/${workspaceId}`;
    const metadata =
      `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">` +
      `<md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
      `<md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${t.baseUrl}/saml/test-sp/acs" index="0"/>` +
      `</md:SPSSODescriptor></md:EntityDescriptor>`;
    await page.getByRole('link', { name: 'SAML' }).click();
    await page.getByRole('button', { name: 'Import metadata' }).click();
    await page.getByLabel('Metadata XML').fill(metadata);
    await page.getByLabel('Name (optional)').fill('Test SP (development)');
    await page.getByRole('button', { name: 'Import' }).click();
    // The import opens the new SP for editing: its entity ID and ACS URL came from the metadata.
    await expect(page.getByLabel('Entity ID').inputValue()).resolves.toBe(entityId);
    await expect(page.getByLabel('ACS URL').inputValue()).resolves.toBe(`${t.baseUrl}/saml/test-sp/acs`);
    await page.getByRole('button', { name: 'Add attribute' }).click();
    await page
      .getByLabel(/^Attribute \d+ name$/)
      .last()
      .fill('firstName');
    await page
      .getByLabel(/^Attribute \d+ field$/)
      .last()
      .selectOption('first_name');
    await page.getByRole('button', { name: 'Save' }).click();
    const spRow = page.getByRole('table', { name: 'Service providers' }).getByRole('row').filter({ hasText: entityId });
    await spRow.getByText('active').waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: shot('console-saml.png'), fullPage: true });

    const sso = await browser.newContext();
    const ssoPage = await sso.newPage();
    await ssoPage.goto(`${t.baseUrl}/saml/test-sp/?workspace_id=${workspaceId}`);
    await ssoPage.getByRole('button', { name: 'Sign in with SAML' }).click();
    await ssoPage.waitForURL(/\/auth\/login\//);
    await ssoPage.getByLabel('Email').fill(email);
    await ssoPage.getByLabel('Password').fill(password);
    await ssoPage.getByRole('button', { name: 'Sign in' }).click();
    await ssoPage.waitForURL(`${t.baseUrl}/saml/test-sp/acs`);
    expect(await ssoPage.textContent('h1')).toBe('Signed in: the assertion is valid');
    expect(await ssoPage.locator('#attributes').textContent()).toContain('Grace');
    await sso.close();
    expect(session.problems).toEqual([]);
  });

  it('webhook endpoint: the secret is shown once, a test event is delivered and the delivery appears with its response code', async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      await signUp(page);
      await newWorkspace(page, 'Hooks');
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('button', { name: 'New endpoint' }).click();
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      const secretField = page.getByLabel('Signing secret');
      await secretField.waitFor();
      receiver.secret = await secretField.inputValue();
      expect(receiver.secret).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'Send test event' }).click();
      await eventually(() => {
        if (receiver.received.length === 0) throw new Error('nothing delivered yet');
      });
      expect(receiver.rejected).toEqual([]);
      const deliveries = page.getByRole('table', { name: `Deliveries to ${receiver.url}` });
      await deliveries.getByRole('row').filter({ hasText: 'succeeded' }).filter({ hasText: '204' }).first().waitFor();
      await expectAccessible(page);
      await page.screenshot({ path: shot('console-webhooks.png'), fullPage: true });
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByText('disabled').first().waitFor();
      expect(session.problems).toEqual([]);
    } finally {
      await receiver.stop();
    }
  });

  it('session expiry sends the person to sign-in, then back to the page they were on', async () => {
    const { email, password } = await signUp(page);
    await newWorkspace(page, 'Expiry');
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('table', { name: 'Members' }).waitFor();
    const membersUrl = page.url();
    // The session runs out (as after DEVELOPER_SESSION_TTL_SECONDS) while the page is open.
    await t.dataSource.query("UPDATE developer_sessions SET expires_at = now() - interval '1 minute'");
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByText('Your session has ended').waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/signin');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    expect(page.url()).toBe(membersUrl.replace('/members', '/audit'));
  });

  it('every page passes an axe scan (no serious or critical violation) at desktop width and at 375 px in dark mode', async () => {
    await signUp(page);
    const workspaceId = await newWorkspace(page, 'Scanned');
    const pages = [
      'scim',
      'directory',
      'events',
      'saml',
      'sso',
      'applications',
      'audit',
      'webhooks',
      'databases',
      'members',
      'templates',
      'settings',
    ];
    const phone = await openConsole(browser, t.baseUrl, { width: 375, height: 740 });
    await phone.page.emulateMedia({ colorScheme: 'dark' });
    await phone.context.addCookies(await session.context.cookies());
    try {
      for (const view of [page, phone.page]) {
        await view.goto('/console/tokens');
        await view.getByRole('heading', { name: 'Developer access tokens' }).waitFor();
        await expectAccessible(view);
        await view.goto('/console/');
        await view.getByRole('heading', { name: 'Workspaces' }).waitFor();
        await expectAccessible(view);
        if (view === page) await view.screenshot({ path: shot('console-workspaces.png') });
        for (const section of pages) {
          await view.goto(`/console/w/${workspaceId}/${section}`);
          await view.getByRole('heading', { level: 1 }).waitFor();
          await view
            .getByRole('status')
            .filter({ hasText: /^Loading/ })
            .waitFor({ state: 'detached' });
          await expectAccessible(view);
          // Nothing wider than the viewport: the layout works at 375 px.
          const wide = await view.evaluate(() =>
            Array.from(document.querySelectorAll('body *'))
              // Tables and code blocks scroll inside their own box; everything else must fit.
              .filter((e) => !e.closest('.table-wrap, pre') && e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
              .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
          );
          expect({ section, wide }).toEqual({ section, wide: [] });
          // Nor does the page itself scroll sideways (a table scrolls in its box, and so do its hidden labels).
          const overflow = await view.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect({ section, overflow }).toEqual({ section, overflow: 0 });
          if (view === phone.page && section === 'scim') await view.screenshot({ path: shot('console-phone-dark.png') });
        }
      }
      await page.context().clearCookies();
      await page.goto('/console/signin');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await expectAccessible(page);
      await page.getByRole('link', { name: 'Sign up' }).click();
      await page.getByRole('button', { name: 'Create account' }).waitFor();
      await expectAccessible(page);
      expect(session.problems).toEqual([]);
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });

  it('access token shown once drives the API; the audit log filters, pages with Load more and exports NDJSON; the revoked token is refused', async () => {
    await signUp(page);
    const workspaceId = await newWorkspace(page, 'Paging');
    await page.getByRole('link', { name: 'Access tokens' }).click();
    await page.getByLabel('Label').fill('CI');
    await page.getByRole('button', { name: 'Create token' }).click();
    const field = page.getByLabel('New access token value');
    await field.waitFor();
    const token = await field.inputValue();
    expect(token).toMatch(/^dat_/);
    const auth = { Authorization: `Bearer ${token}` };
    // 55 audited changes through the API with the copied token: more than one page of 50.
    for (let i = 0; i < 55; i++) {
      await t
        .http()
        .post('/developer/scim/tokens/')
        .set(auth)
        .send({ workspace_id: workspaceId, label: `idp ${i}` })
        .expect(201);
    }

    await page.goto(`/console/w/${workspaceId}/audit`);
    const rows = page.getByRole('table', { name: 'Audit events' }).locator('tbody tr');
    await eventually(async () => expect(await rows.count()).toBe(50));
    await page.getByRole('button', { name: 'Load more' }).click();
    await eventually(async () => expect(await rows.count()).toBe(56)); // 55 tokens and the workspace
    await expect(page.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);

    await page.getByText('Filters', { exact: true }).click();
    await page.getByLabel('Event type').fill('workspace_create');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await eventually(async () => expect(await rows.count()).toBe(1));
    await expect(rows.first().textContent()).resolves.toContain('workspace_create');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export NDJSON' }).click()]);
    const path = await download.path();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(56);
    expect(lines.map((line) => (JSON.parse(line) as { event_type: string }).event_type)).toContain('workspace_create');

    await page.getByRole('link', { name: 'Access tokens' }).click();
    await page.getByRole('table').getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('No access tokens.').waitFor();
    await t.http().get('/developer/scim/tokens/').query({ workspace_id: workspaceId }).set(auth).expect(401);
    expect(session.problems).toEqual([]);
  });

  it('databases: an unconfigured engine is explained; a Postgres database becomes available, reveals its connection, backs up with a checksum and is deleted', async () => {
    await signUp(page);
    await newWorkspace(page, 'Data');
    await page.getByRole('link', { name: 'Databases' }).click();
    await page.getByRole('button', { name: 'New database' }).click();
    await page.getByLabel('Name').fill('Sessions');
    await page.getByLabel('Engine').selectOption('mongodb');
    await page.getByRole('button', { name: 'Create database' }).click();
    await page.getByText('This engine is not configured on this server').waitFor();
    await page.getByRole('alert').first().waitFor();

    await page.getByLabel('Engine').selectOption('postgres');
    await page.getByLabel('Name').fill('Orders');
    await page.getByRole('button', { name: 'Create database' }).click();
    const card = page.getByRole('article', { name: 'Database Orders' });
    // The status updates by itself while the database is being created.
    await card.getByText('available', { exact: true }).waitFor({ timeout: PROVISIONING_CEILING_MS });
    // The new database's details are open already.
    await expect(card.getByRole('button', { name: 'Details', exact: true }).getAttribute('aria-expanded')).resolves.toBe('true');
    await card.getByRole('button', { name: 'Show connection details' }).click();
    await card.getByText(/^postgresql:\/\//).waitFor();
    await card.getByLabel('Backup name').fill('before-migration');
    await card.getByRole('button', { name: 'Back up now' }).click();
    const backup = card.getByRole('table', { name: 'Backups of Orders' }).getByRole('row').filter({ hasText: 'before-migration' });
    await backup.getByText('completed').waitFor({ timeout: PROVISIONING_CEILING_MS });
    expect(await backup.textContent()).toMatch(/[0-9a-f]{16}…/);
    await card.getByText(/Storage .* of 1\.0 GiB/).waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: shot('console-databases.png'), fullPage: true });

    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await card.waitFor({ state: 'detached', timeout: PROVISIONING_CEILING_MS });
    expect(session.problems).toEqual([]);
  });
});
