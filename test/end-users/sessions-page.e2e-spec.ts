import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { TestApp } from '../support/app';
import { SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser, bearer, logIn } from './support';
import { withChromium } from '../support/browser';
import { withMailingApp } from '../support/mailing-app';

const SCREENSHOT = process.env.UPDATE_SCREENSHOTS
  ? join(__dirname, '..', '..', 'docs', 'images', 'sessions-page.png')
  : join(tmpdir(), `sessions-page-${process.pid}.png`);
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

/** The new-sign-in alert's link: a hosted HTML page where the user signs in, sees the sessions and signs one out. */
describe('hosted sessions page (from the alert mail)', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let browser: Browser;
  withMailingApp((started) => ({ t, smtp } = started));
  withChromium((started) => (browser = started));

  it('opens from the alert link, asks to sign in, lists the sessions and signs one out', async () => {
    const { client } = await aTenant(t, 'Acme Notes');
    const user = await anEndUser(t, client, { smtp, email: 'ada.sessions@acme-notes.test' });
    await logIn(t, user, {
      'User-Agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
    });
    const other = await logIn(t, user, { 'User-Agent': FIREFOX });
    const alert = await smtp.waitFor(user.email, { nth: 2 });
    const link = /href="([^"]*\/auth\/sessions\/[^"]*)"/.exec(alert.html ?? '')?.[1]?.replace(/&amp;/g, '&');
    expect(link).toBeDefined();

    const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(link!);
    await page.waitForURL(/\/auth\/login\/\?/);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/auth\/sessions\/$/);
    expect(await page.textContent('h1')).toBe('Your sessions');
    const rows = await page.locator('#sessions tr').allTextContents();
    expect(rows).toHaveLength(3); // two API sign-ins and this browser
    expect(rows.some((r) => r.includes('Firefox on Linux'))).toBe(true);
    expect(rows.some((r) => r.includes('(this browser)'))).toBe(true);
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    await page.getByRole('button', { name: 'Sign out Firefox on Linux' }).click();
    await page.waitForURL(/signed_out=1/);
    expect(await page.getByRole('status').textContent()).toContain('The session is signed out');
    expect(await page.locator('#sessions tr').count()).toBe(2);
    // The signed-out session's access token no longer works.
    await t.http().get('/user/security/sessions/').set(bearer(other.access_token)).expect(401);
    await context.close();
  });

  it('links the signed-in page, the sessions page and the security page to each other, each branded with the application', async () => {
    const { client } = await aTenant(t, 'Acme Notes');
    const user = await anEndUser(t, client, { smtp });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/auth/login/?client_id=${client.client_id}`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: "You're signed in" }).waitFor();

    const account = page.getByRole('navigation', { name: 'Your account' });
    await account.getByRole('link', { name: /^Security/ }).click();
    await page.waitForURL(/\/auth\/security\//);
    expect(await page.textContent('h1')).toBe('Security');
    expect(await page.locator('.brand-name').textContent()).toBe('Acme Notes');
    expect(await page.title()).toBe('Security · Acme Notes');

    await account.getByRole('link', { name: 'Your sessions' }).click();
    await page.waitForURL(/\/auth\/sessions\//);
    expect(await page.textContent('h1')).toBe('Your sessions');
    expect(await page.locator('.brand-name').textContent()).toBe('Acme Notes');
    await account.getByRole('link', { name: /^Security/ }).click();
    await page.waitForURL(/\/auth\/security\//);
    await context.close();
  });

  it('refuses a sign-out form without its CSRF token and cannot sign out another user’s session', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client, { smtp });
    const stranger = await anEndUser(t, client, { smtp });
    const theirs = await logIn(t, stranger);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/auth/sessions/?client_id=${client.client_id}`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/auth\/sessions\/$/);
    const cookies = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const csrf = await page.locator('input[name=csrf_token]').first().inputValue();

    const forged = await t.http().post('/auth/sessions/revoke').set('Cookie', cookies).type('form').send({ session_id: theirs.session_id });
    expect(forged.text).toContain('That form had expired');
    const foreign = await t
      .http()
      .post('/auth/sessions/revoke')
      .set('Cookie', cookies)
      .type('form')
      .send({ session_id: theirs.session_id, csrf_token: csrf });
    expect(foreign.status).toBe(404);
    expect(foreign.headers['content-type']).toMatch(/text\/html/);
    await t.http().get('/user/security/sessions/').set(bearer(theirs.access_token)).expect(200);
    await context.close();
  });
});
