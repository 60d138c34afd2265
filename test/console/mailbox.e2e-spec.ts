import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createTestApp, TestApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { eventually } from '../support/eventually';
import { aDeveloper, aWorkspace, uniqueEmail } from '../support/factories';
import { startSmtpReceiver } from '../support/smtp-receiver';
import { expectAccessible, openConsole, type ConsoleBrowser } from './support';

/** The screenshot for docs/console.md: written to docs/images with UPDATE_SCREENSHOTS=1, else to a temporary file. */
const shot = (name: string) =>
  process.env.UPDATE_SCREENSHOTS ? join(__dirname, '..', '..', 'docs', 'images', name) : join(tmpdir(), `${process.pid}-${name}`);

/** Signs up a developer in the console, creates a workspace and answers its id. */
async function signUpWithWorkspace(page: Page): Promise<string> {
  await page.goto('/console/');
  await page.getByRole('link', { name: 'Sign up' }).click();
  await page.getByLabel('Name').fill('Mia Developer');
  await page.getByLabel('Email').fill(uniqueEmail('console-mailbox'));
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  await page.getByRole('button', { name: 'New workspace' }).click();
  await page.getByLabel('Name').fill('Acme');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('heading', { name: 'SCIM provisioning' }).waitFor();
  return /\/console\/w\/([0-9a-f-]{36})\//.exec(page.url())![1];
}

/**
 * Without SMTP, mail is written to files; the console's Mailbox page (development only) reads the
 * workspace's last mails back with their codes, and the Applications page links the hosted pages its
 * end users see (sign-in, security, sessions). Decision 0218.
 */
describe('console mailbox and the end users’ pages, in a real browser, with mail written to files', () => {
  let t: TestApp;
  let browser: Browser;
  let session: ConsoleBrowser;

  beforeAll(async () => {
    t = await createTestApp({ SMTP_URL: '' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  beforeEach(async () => {
    session = await openConsole(browser, t.baseUrl);
  });
  afterEach(async () => {
    await session.context.close();
  });

  it('a person signs up on the hosted page opened from Applications, the code is read in the Mailbox, and the Security page is one click away', async () => {
    const { page, context } = session;
    await signUpWithWorkspace(page);
    const nav = page.getByRole('navigation', { name: 'Workspace' });
    await nav.getByRole('link', { name: 'Mailbox', exact: true }).waitFor();

    await nav.getByRole('link', { name: 'Applications', exact: true }).click();
    await page.getByRole('button', { name: 'New application' }).click();
    await page.getByLabel('Name').fill('Acme Notes');
    await page.getByLabel('Redirect URIs').fill('https://notes.example.test/callback');
    await page.getByLabel('Let people create an account on the hosted login').check();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    const pages = page.getByRole('navigation', { name: 'What end users of Acme Notes see' });

    // The sign-in page, in a new tab, carries the application's name and offers sign-up.
    const [hosted] = await Promise.all([context.waitForEvent('page'), pages.getByRole('link', { name: 'Sign-in page' }).click()]);
    await hosted.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await hosted.textContent('body')).toContain('Acme Notes');
    await hosted.getByRole('link', { name: 'Create an account' }).click();
    const email = uniqueEmail('newcomer');
    await hosted.getByLabel('Email').fill(email);
    await hosted.getByLabel('Password').fill('newcomer-password-1');
    await hosted.getByRole('button', { name: 'Create account' }).click();
    await hosted.getByRole('heading', { name: 'Verify your email first' }).waitFor();

    // The code, from the console's mailbox (the mail job writes the file shortly after the sign-up).
    await nav.getByRole('link', { name: 'Mailbox', exact: true }).click();
    await page.getByRole('heading', { name: 'Mailbox' }).waitFor();
    const row = page.getByRole('table', { name: 'Last mails' }).getByRole('row').filter({ hasText: email });
    await eventually(
      async () => {
        if ((await row.count()) === 0) await page.getByRole('button', { name: 'Refresh' }).click();
        await row.first().waitFor({ timeout: 5_000 });
      },
      { timeoutMs: 90_000 },
    );
    const code = (await row.locator('code').first().textContent())!;
    expect(code).toMatch(/^[0-9]{6}$/);
    await row.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await row.getByText('Show the text').click();
    expect(await row.locator('pre').textContent()).toContain(code);
    await expectAccessible(page);
    await page.screenshot({ path: shot('console-mailbox.png'), fullPage: true });

    await hosted.getByLabel('Verification code').fill(code);
    await hosted.getByRole('button', { name: 'Verify email' }).click();
    await hosted.getByRole('heading', { name: "You're signed in" }).waitFor();
    expect(await hosted.textContent('body')).toContain(email);

    // "What end users see": the Security page, opened from the console, for the person signed in this browser.
    await nav.getByRole('link', { name: 'Applications', exact: true }).click();
    const [security] = await Promise.all([context.waitForEvent('page'), pages.getByRole('link', { name: 'Security page' }).click()]);
    await security.getByRole('heading', { name: 'Security', exact: true }).waitFor();
    expect(await security.textContent('body')).toContain(`Signed in as ${email}.`);
    await security.getByRole('button', { name: 'Set up authenticator app' }).waitFor();
    expect(new URL(security.url()).pathname).toBe('/auth/security/');
    const [sessions] = await Promise.all([context.waitForEvent('page'), pages.getByRole('link', { name: 'Sessions page' }).click()]);
    await sessions.getByRole('heading', { name: 'Your sessions' }).waitFor();
    expect(session.problems).toEqual([]);
  });

  it('says so when a mail file is gone, and keeps each workspace to its own mails', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const stranger = await aDeveloper(t);
    const client = (
      await t
        .http()
        .post('/developer/oauth/clients/')
        .set(dev.auth)
        .send({ workspace_id: ws.id, name: 'Notes', redirect_uris: ['https://notes.example.test/cb'] })
        .expect(201)
    ).body as { client_id: string };
    const email = uniqueEmail('files');
    await t.http().post('/e/v1/auth/register/').send({ client_id: client.client_id, email, password: 'a-long-password-1' }).expect(201);
    const listed = await eventually(async () => {
      const res = await t.http().get('/developer/dev-mailbox/').query({ workspace_id: ws.id }).set(dev.auth).expect(200);
      expect(res.body.results).toHaveLength(1);
      return res.body.results[0] as { to: string; codes: string[]; file_name: string; missing: boolean; subject: string };
    });
    expect(listed).toMatchObject({ to: email, missing: false, codes: [expect.stringMatching(/^[0-9]{6}$/)] });

    // Another developer, a made-up id, no id, no credential.
    await t.http().get('/developer/dev-mailbox/').query({ workspace_id: ws.id }).set(stranger.auth).expect(404);
    const otherWs = await aWorkspace(t, stranger);
    const theirs = await t.http().get('/developer/dev-mailbox/').query({ workspace_id: otherWs.id }).set(stranger.auth).expect(200);
    expect(theirs.body.results).toEqual([]);
    await t.http().get('/developer/dev-mailbox/').query({ workspace_id: 'not-a-uuid' }).set(dev.auth).expect(400);
    await t.http().get('/developer/dev-mailbox/').set(dev.auth).expect(400);
    await t.http().get('/developer/dev-mailbox/').query({ workspace_id: ws.id }).expect(401);

    rmSync(join(t.config.MAIL_DIR, listed.file_name));
    const after = await t.http().get('/developer/dev-mailbox/').query({ workspace_id: ws.id }).set(dev.auth).expect(200);
    expect(after.body.results[0]).toMatchObject({ to: email, missing: true, codes: [], text: null });
  });
});

describe('the development mailbox where mail is sent, and in production', () => {
  it('does not exist with SMTP, and the console does not offer it', async () => {
    const smtp = await startSmtpReceiver();
    const t = await createTestApp({ SMTP_URL: smtp.url });
    const browser = await launchChromium();
    try {
      const dev = await aDeveloper(t);
      const ws = await aWorkspace(t, dev);
      await t.http().get('/developer/dev-mailbox/').query({ workspace_id: ws.id }).set(dev.auth).expect(404);
      const { page } = await openConsole(browser, t.baseUrl);
      await signUpWithWorkspace(page);
      const nav = page.getByRole('navigation', { name: 'Workspace' });
      await nav.getByRole('link', { name: 'Email templates', exact: true }).waitFor();
      // The probe has answered once the page settles: no Mailbox entry appears.
      await page.waitForLoadState('networkidle');
      expect(await nav.getByRole('link', { name: 'Mailbox', exact: true }).count()).toBe(0);
    } finally {
      await browser.close();
      await t.close();
      await smtp.stop();
    }
  });

  it('does not exist in production, even with mail written to files', async () => {
    const t = await createTestApp({ NODE_ENV: 'production', SMTP_URL: '' });
    try {
      const dev = await aDeveloper(t);
      const ws = await aWorkspace(t, dev);
      await t.http().get('/developer/dev-mailbox/').query({ workspace_id: ws.id }).set(dev.auth).expect(404);
    } finally {
      await t.close();
    }
  });
});
