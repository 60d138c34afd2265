import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { createTestApp, TestApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser, TestEndUser } from './support';

/** A credential as CDP's WebAuthn domain reports and accepts it. */
interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
}

/**
 * Passkeys on the hosted pages in Chromium, with a CDP virtual authenticator (CTAP2, internal
 * transport, resident keys, user verification): registration on the security page, a passkey as
 * the second factor after the password, and sign-in with the passkey alone. The service runs at
 * http://localhost:<port>: a WebAuthn relying-party id is a domain, never an IP address.
 */
describe('passkeys on the hosted pages, in Chromium with a virtual authenticator', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let browser: Browser;
  let origin: string;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'http://localhost:{port}' });
    origin = t.config.PUBLIC_BASE_URL;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
    await smtp.stop();
  });

  /** A page with its own virtual authenticator, holding `credentials` (a passkey moved to this device). */
  async function pageWithAuthenticator(
    context: BrowserContext,
    credentials: VirtualCredential[] = [],
  ): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    for (const credential of credentials) await cdp.send('WebAuthn.addCredential', { authenticatorId, credential });
    return { page, cdp, authenticatorId };
  }

  async function passwordStep(page: Page, user: TestEndUser, next: string): Promise<void> {
    await page.goto(`${origin}/auth/login/?client_id=${encodeURIComponent(user.clientId)}&next=${encodeURIComponent(next)}`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForLoadState('domcontentloaded');
  }

  const sessionMethods = async (userId: string) =>
    (
      (await t.dataSource.query(`SELECT amr FROM end_user_sessions WHERE user_id = $1 ORDER BY created_at`, [userId])) as {
        amr: string[];
      }[]
    ).map((r) => r.amr);

  it('registers a passkey on the security page, then signs in with it after the password and without one', async () => {
    const { client } = await aTenant(t, 'Acme Notes');
    const user = await anEndUser(t, client, { smtp });
    const home = `/auth/login/?client_id=${encodeURIComponent(client.client_id)}`;

    // Register: signed in with the password, "Add a passkey" runs the ceremony against the virtual authenticator.
    const first = await browser.newContext();
    const enrol = await pageWithAuthenticator(first);
    await passwordStep(enrol.page, user, '/auth/security/');
    await enrol.page.waitForURL((url) => url.pathname === '/auth/security/');
    expect(await enrol.page.locator('#passkeys-none').textContent()).toContain('No passkeys yet');
    await enrol.page.getByLabel('Passkey name').fill('Test laptop');
    await enrol.page.getByRole('button', { name: 'Add a passkey' }).click();
    await enrol.page.getByRole('status').filter({ hasText: 'Passkey “Test laptop” added.' }).waitFor();
    expect(await enrol.page.getByRole('list', { name: 'Recovery codes' }).locator('li').count()).toBe(10);
    expect(await enrol.page.getByRole('table', { name: 'Passkeys' }).textContent()).toContain('Test laptop');
    const { credentials } = (await enrol.cdp.send('WebAuthn.getCredentials', { authenticatorId: enrol.authenticatorId })) as {
      credentials: VirtualCredential[];
    };
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

    // Rename it on the same page.
    await enrol.page.getByText('Rename or remove').click();
    await enrol.page.getByLabel('New name for Test laptop').fill('Work laptop');
    await enrol.page.getByRole('button', { name: 'Rename' }).click();
    await enrol.page.getByRole('status').filter({ hasText: 'Passkey renamed to “Work laptop”.' }).waitFor();
    await first.close();

    // Second factor: the password, a wrong recovery code (the page is drawn again with the same methods), then the passkey.
    const second = await browser.newContext();
    const step = await pageWithAuthenticator(second, credentials);
    await passwordStep(step.page, user, home);
    expect(await step.page.getByRole('heading', { level: 1 }).textContent()).toBe('Two-step verification');
    expect((await second.cookies()).find((c) => c.name === 'esid')).toBeUndefined();
    await step.page.getByText('Use a recovery code').click();
    await step.page.getByLabel('Recovery code').fill('WRONG-CODE1');
    await step.page.getByRole('button', { name: 'Use recovery code' }).click();
    await step.page.waitForLoadState('domcontentloaded');
    expect(await step.page.getByRole('alert').first().textContent()).toBe('That recovery code is not valid.');
    // Exactly this challenge's methods: a passkey and a recovery code, no authenticator-app field.
    await step.page.getByRole('button', { name: 'Use a passkey' }).waitFor();
    expect(await step.page.getByLabel('Recovery code').count()).toBe(1);
    expect(await step.page.getByLabel('Authentication code').count()).toBe(0);
    await step.page.getByRole('button', { name: 'Use a passkey' }).click();
    await step.page.waitForURL((url) => url.pathname + url.search === home);
    expect(await step.page.getByRole('heading', { level: 1 }).textContent()).toBe("You're signed in");
    // The authenticator's sign counter moved on; the next device gets the credential as it is now
    // (the service refuses a counter that goes backwards, as from a cloned key).
    const used = (await step.cdp.send('WebAuthn.getCredentials', { authenticatorId: step.authenticatorId })) as {
      credentials: VirtualCredential[];
    };
    expect(used.credentials[0].signCount).toBeGreaterThan(credentials[0].signCount);
    await second.close();

    // Passwordless: the sign-in form's "Continue with a passkey" alone.
    const third = await browser.newContext();
    const direct = await pageWithAuthenticator(third, used.credentials);
    await direct.page.goto(`${origin}${home}`);
    await direct.page.getByRole('button', { name: 'Continue with a passkey' }).click();
    await direct.page.getByRole('heading', { level: 1, name: "You're signed in" }).waitFor();

    // Remove it on the security page of that session.
    await direct.page.goto(`${origin}/auth/security/`);
    await direct.page.getByText('Rename or remove').click();
    await direct.page.getByRole('button', { name: 'Remove passkey Work laptop' }).click();
    await direct.page.getByRole('status').filter({ hasText: 'The passkey is removed.' }).waitFor();
    expect(await direct.page.locator('#passkeys-none').count()).toBe(1);
    await third.close();

    expect(await sessionMethods(user.id)).toEqual([['pwd'], ['pwd', 'hwk', 'mfa'], ['hwk', 'mfa']]);
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM end_user_passkeys WHERE user_id = $1`, [user.id]);
    expect(n).toBe(0);
  });

  it('refuses a passkey of another application on the passwordless sign-in', async () => {
    const a = await aTenant(t, 'App A');
    const b = await aTenant(t, 'App B');
    const user = await anEndUser(t, a.client, { smtp });
    const context = await browser.newContext();
    const enrol = await pageWithAuthenticator(context);
    await passwordStep(enrol.page, user, '/auth/security/');
    await enrol.page.getByRole('button', { name: 'Add a passkey' }).click();
    await enrol.page.getByRole('status').filter({ hasText: 'added' }).waitFor();
    // Application B's sign-in form: the browser offers A's passkey (same relying party), the service refuses it.
    await enrol.page.context().clearCookies();
    await enrol.page.goto(`${origin}/auth/login/?client_id=${encodeURIComponent(b.client.client_id)}`);
    await enrol.page.getByRole('button', { name: 'Continue with a passkey' }).click();
    await enrol.page.getByRole('alert').filter({ hasText: 'That passkey was not accepted for this application' }).waitFor();
    expect((await context.cookies()).find((c) => c.name === 'esid')).toBeUndefined();
    await context.close();
  });
});
