import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Browser } from 'playwright-core';
import { TestApp } from '../support/app';
import { SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser } from './support';
import { withChromium } from '../support/browser';
import { withMailingApp } from '../support/mailing-app';

// The docs' picture is refreshed only on request (UPDATE_SCREENSHOTS=1), so a test run leaves the tree clean.
const SCREENSHOT = process.env.UPDATE_SCREENSHOTS
  ? join(__dirname, '..', '..', 'docs', 'images', 'hosted-login.png')
  : join(tmpdir(), `hosted-login-${process.pid}.png`);

describe('hosted login in a real browser (headless Chromium)', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let browser: Browser;
  withMailingApp((started) => ({ t, smtp } = started));
  withChromium((started) => (browser = started));

  it('signs in with the keyboard-accessible form and lands on next', async () => {
    const { client } = await aTenant(t, 'Acme Notes');
    const user = await anEndUser(t, client, { smtp, email: 'ada.lovelace@acme-notes.test' });
    const next = `/auth/login/?client_id=${encodeURIComponent(client.client_id)}`;
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 }, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/auth/login/?client_id=${encodeURIComponent(client.client_id)}&next=${encodeURIComponent(next)}`);
    expect(await page.title()).toBe('Sign in · Acme Notes');
    // The email field has focus on arrival and every field is reachable by its label.
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('email');
    await page.getByLabel('Email').fill(user.email);
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    // A wrong password: generic message in the live region, password field focused for a retry.
    await page.getByLabel('Password').fill('not my password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState('domcontentloaded');
    expect(await page.getByRole('alert').first().textContent()).toBe('Email or password is incorrect');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('password');

    await page.getByLabel('Password').fill(user.password);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname + url.search === next);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe("You're signed in");
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'esid')).toEqual(expect.objectContaining({ httpOnly: true, sameSite: 'Lax' }));
    await context.close();
  });

  it('continues an interrupted sign-in after the email code, ending on a page naming the application', async () => {
    const { client } = await aTenant(t, 'Acme Notes');
    const user = await anEndUser(t, client);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/auth/login/?client_id=${encodeURIComponent(client.client_id)}`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState('domcontentloaded');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Verify your email first');
    const code = /\b(\d{6})\b/.exec((await smtp.waitFor(user.email)).subject)![1];
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Verify email' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login/' && url.searchParams.get('client_id') === client.client_id);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe("You're signed in");
    expect(await page.locator('.lead').textContent()).toContain(`Signed in to Acme Notes as ${user.email}`);
    expect(await page.title()).toBe('Signed in to Acme Notes · Acme Notes');
    await context.close();
  });
});
