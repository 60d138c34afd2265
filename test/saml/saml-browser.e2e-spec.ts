import type { Browser } from 'playwright-core';
import { createTestApp, TestApp } from '../support/app';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser, Tenant, TestEndUser } from '../end-users/support';
import { aRegisteredSp, RegisteredSp } from './support/saml-sso.helpers';
import { samlEnv } from './support/saml-env';
import { launchChromium } from '../support/browser';
import { startSpServer, type SpServer } from '../support/saml-sp-server';

describe('SAML sign-in in a real browser', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let tenant: Tenant;
  let user: TestEndUser;
  let sp: RegisteredSp;
  let spServer: SpServer;
  let browser: Browser;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp({ ...samlEnv(), SMTP_URL: smtp.url });
    tenant = await aTenant(t);
    user = await anEndUser(t, tenant.client, { smtp, firstName: 'Grace' });
    spServer = await startSpServer(() => sp, t.baseUrl, {
      relayState: '/dashboard',
      attributes: ['nameID', 'email', 'firstName', 'displayName', 'uid'],
    });
    sp = await aRegisteredSp(t, tenant.dev, tenant.ws, { acs_url: `${spServer.base}/acs` });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => spServer?.server.close(resolve));
    await t.close();
    await smtp.stop();
  });

  async function signInFrom(javaScriptEnabled: boolean) {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(`${spServer.base}/start`);
    await page.waitForURL(/\/auth\/login\//);
    await page.fill('#email', user.email);
    await page.fill('#password', user.password);
    await page.click('button[type=submit]');
    return { context, page };
  }

  it('walks SP page -> our login page -> auto-submitted POST -> the SP shows the attributes', async () => {
    const { context, page } = await signInFrom(true);
    await page.waitForURL(`${spServer.base}/acs`);
    expect(await page.textContent('h1')).toBe('Welcome to the SP');
    expect(await page.textContent('#nameID')).toBe(user.email);
    expect(await page.textContent('#email')).toBe(user.email);
    expect(await page.textContent('#firstName')).toBe('Grace');
    expect(await page.textContent('#uid')).toBe(user.id);
    expect(await page.textContent('#relay')).toBe('/dashboard');
    await context.close();
  });

  it('lets a browser without scripts finish with the visible Continue button', async () => {
    const { context, page } = await signInFrom(false);
    await page.waitForSelector('button:has-text("Continue")');
    expect(await page.isVisible('button:has-text("Continue")')).toBe(true);
    await Promise.all([page.waitForURL(`${spServer.base}/acs`), page.click('button:has-text("Continue")')]);
    expect(await page.textContent('#nameID')).toBe(user.email);
    await context.close();
  });
});
