import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Clock } from '../../src/common/clock';
import { createTestApp, TestApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { TestAuthenticator } from './mfa-support';
import { aTenant, anEndUser, TestEndUser } from './support';

describe('second factor on the hosted pages, in Chromium', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let browser: Browser;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp({ SMTP_URL: smtp.url });
    browser = await launchChromium();
  });
  afterEach(() => t.get<Clock>(Clock).reset());
  afterAll(async () => {
    await browser?.close();
    await t.close();
    await smtp.stop();
  });

  async function passwordStep(context: BrowserContext, user: TestEndUser, next: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/auth/login/?client_id=${encodeURIComponent(user.clientId)}&next=${encodeURIComponent(next)}`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState('domcontentloaded');
    return page;
  }

  const sessionMethods = async (userId: string) =>
    (
      (await t.dataSource.query(`SELECT amr FROM end_user_sessions WHERE user_id = $1 ORDER BY created_at`, [userId])) as {
        amr: string[];
      }[]
    ).map((r) => r.amr);

  it('enrols an authenticator on the security page, then signs in with a TOTP code and with a recovery code', async () => {
    const { client } = await aTenant(t, 'Acme Notes');
    const user = await anEndUser(t, client, { smtp });
    const home = `/auth/login/?client_id=${encodeURIComponent(client.client_id)}`;

    // Enrol: signed in with the password, the security page offers the set-up.
    const first = await browser.newContext();
    const page = await passwordStep(first, user, '/auth/security/');
    await page.waitForURL((url) => url.pathname === '/auth/security/');
    expect(await page.locator('#factors').textContent()).toContain('Off');
    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    await page.waitForLoadState('domcontentloaded');
    const qr = page.getByRole('img', { name: 'QR code of the authenticator key' });
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const secret = (await page.locator('#totp-secret').textContent())!.trim();
    const uri = new URL((await page.locator('#otpauth-uri').getAttribute('href'))!);
    expect(uri.searchParams.get('secret')).toBe(secret);
    const app = new TestAuthenticator(t, secret);
    await page.getByLabel('Authentication code').fill('000000' === app.current() ? '111111' : '000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.waitForLoadState('domcontentloaded');
    expect(await page.getByRole('alert').first().textContent()).toBe('The code is not correct');
    await page.getByLabel('Authentication code').fill(app.current());
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.waitForLoadState('domcontentloaded');
    const codes = (await page.getByRole('list', { name: 'Recovery codes' }).locator('li').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    expect(await page.locator('#factors').textContent()).toContain('On');
    await first.close();

    // Sign in: the password, then the authenticator code.
    const second = await browser.newContext();
    const challenged = await passwordStep(second, user, home);
    expect(await challenged.getByRole('heading', { level: 1 }).textContent()).toBe('Two-step verification');
    expect((await second.cookies()).find((c) => c.name === 'esid')).toBeUndefined();
    await challenged.getByLabel('Authentication code').fill(app.next());
    await challenged.getByRole('button', { name: 'Verify' }).click();
    await challenged.waitForURL((url) => url.pathname + url.search === home);
    expect(await challenged.getByRole('heading', { level: 1 }).textContent()).toBe("You're signed in");
    await second.close();

    // Sign in with a recovery code instead.
    const third = await browser.newContext();
    const recovering = await passwordStep(third, user, home);
    await recovering.getByText('Use a recovery code').click();
    await recovering.getByLabel('Recovery code').fill(codes[0]);
    await recovering.getByRole('button', { name: 'Use recovery code' }).click();
    await recovering.waitForURL((url) => url.pathname + url.search === home);
    expect(await recovering.getByRole('heading', { level: 1 }).textContent()).toBe("You're signed in");
    await third.close();

    // The same recovery code again: refused on the page.
    const fourth = await browser.newContext();
    const again = await passwordStep(fourth, user, home);
    await again.getByText('Use a recovery code').click();
    await again.getByLabel('Recovery code').fill(codes[0]);
    await again.getByRole('button', { name: 'Use recovery code' }).click();
    await again.waitForLoadState('domcontentloaded');
    expect(await again.getByRole('alert').first().textContent()).toBe('That recovery code is not valid.');
    await fourth.close();

    expect(await sessionMethods(user.id)).toEqual([['pwd'], ['pwd', 'otp', 'mfa'], ['pwd', 'otp', 'mfa']]);
  });

  it('removes the authenticator on the security page with a current code', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client, { smtp });
    const context = await browser.newContext();
    const page = await passwordStep(context, user, '/auth/security/');
    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    await page.waitForLoadState('domcontentloaded');
    const app = new TestAuthenticator(t, (await page.locator('#totp-secret').textContent())!.trim());
    await page.getByLabel('Authentication code').fill(app.current());
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.waitForLoadState('domcontentloaded');
    await page.getByText('Remove the authenticator app').click();
    await page.getByLabel('Current code or a recovery code').fill(app.next());
    await page.getByRole('button', { name: 'Remove authenticator app' }).click();
    await page.waitForLoadState('domcontentloaded');
    expect(await page.getByRole('status').textContent()).toContain('The authenticator app is removed');
    expect(await page.locator('#factors').textContent()).toContain('Off');
    await context.close();
  });
});
