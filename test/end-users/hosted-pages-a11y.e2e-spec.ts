import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../support/app';
import { withChromium } from '../support/browser';
import { uniqueEmail } from '../support/factories';
import { withMailingApp } from '../support/mailing-app';
import { codeIn, SmtpReceiver } from '../support/smtp-receiver';
import { seriousViolations } from '../console/support';
import { anApplication } from '../oidc/support';
import { TestAuthenticator } from './mfa-support';

/**
 * Axe in CI for the hosted pages, as for the console: every page a person meets on the hosted login
 * (sign-in, sign-up, verification, step-up, security, sessions, reset, signed-in, error pages), in
 * Chromium, light and dark, without one serious or critical finding.
 */
describe('hosted pages: accessibility (axe-core in Chromium)', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let browser: Browser;
  withMailingApp((started) => ({ t, smtp } = started));
  withChromium((started) => (browser = started));

  /**
   * What axe finds on the page as it is now, in the light and the dark colour scheme, named by the page's title.
   * Reduced motion is asked for as well: buttons fade their background for 0.15 s otherwise, and axe measuring the
   * contrast of a button half-way from the light colours to the dark ones (a loaded CI machine, once) finds a
   * colour no reader ever sees at rest.
   */
  async function findings(page: Page): Promise<string[]> {
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      const title = await page.title();
      found.push(...(await seriousViolations(page)).map((v) => `${title} (${colorScheme}): ${v}`));
    }
    return found;
  }

  it('finds no serious or critical violation on any hosted page, with and without errors shown', async () => {
    const { app } = await anApplication(t, { allow_signup: true });
    const home = `/auth/login/?client_id=${app.client_id}`;
    const context = await browser.newContext({ baseURL: t.baseUrl });
    const page = await context.newPage();
    const found: string[] = [];
    const scan = async (heading: string | RegExp) => {
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      found.push(...(await findings(page)));
    };
    try {
      // Error pages: a link that names no application, and sign-up where the application does not offer it.
      await page.goto('/auth/login/');
      await scan('This request could not be completed');
      const closed = await anApplication(t);
      await page.goto(`/auth/login/signup/?client_id=${closed.app.client_id}`);
      await scan('Page not found');

      // Sign in, then its error state.
      await page.goto(home);
      await scan('Sign in');
      await page.getByLabel('Email').fill('nobody@example.test');
      await page.getByLabel('Password').fill('wrong password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: /incorrect/ })
        .waitFor();
      found.push(...(await findings(page)));

      // Password reset.
      await page.getByRole('link', { name: /Forgot your password/ }).click();
      await scan('Reset your password');

      // Sign-up, its error state, the verification page and its error state.
      await page.goto(home);
      await page.getByRole('link', { name: 'Create an account' }).click();
      await scan('Create an account');
      const email = uniqueEmail('a11y');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('short');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: /at least 8/ })
        .waitFor();
      found.push(...(await findings(page)));
      await page.getByLabel('Password').fill('a11y-password-1');
      await page.getByRole('button', { name: 'Create account' }).click();
      await scan('Verify your email first');
      const code = codeIn(await smtp.waitFor(email));
      await page.getByLabel('Verification code').fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Verify email' }).click();
      await page.getByRole('alert').filter({ hasText: /./ }).waitFor();
      found.push(...(await findings(page)));
      await page.getByLabel('Verification code').fill(code);
      await page.getByRole('button', { name: 'Verify email' }).click();
      await scan("You're signed in");

      // Security: the factors, the authenticator's set-up, the recovery codes.
      await page.getByRole('link', { name: /^Security/ }).click();
      await scan('Security');
      await page.getByRole('button', { name: 'Set up authenticator app' }).click();
      await page.getByRole('heading', { name: 'Set up an authenticator app' }).waitFor();
      found.push(...(await findings(page)));
      const authenticator = new TestAuthenticator(t, (await page.locator('#totp-secret').textContent())!.trim());
      await page.getByLabel('Authentication code').fill(authenticator.current());
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
      found.push(...(await findings(page)));

      // Sessions.
      await page.getByRole('link', { name: 'Your sessions' }).click();
      await scan('Your sessions');

      // Step-up: this browser signed in with the password alone, the account now has a factor.
      await page.goto(`${home}&step_up=1&next=${encodeURIComponent('/auth/sessions/')}`);
      await scan('Two-step verification');
      await page.getByLabel('Authentication code').fill(authenticator.next() === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('alert').filter({ hasText: /./ }).waitFor();
      found.push(...(await findings(page)));
    } finally {
      await context.close();
    }
    expect(found).toEqual([]);
  });
});
