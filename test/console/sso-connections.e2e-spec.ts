import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startDnsServer, type TestDnsServer } from '../sso-connections/support/dns-server';
import { UpstreamOp } from '../sso-connections/support/upstream-op';
import { idpKeys, UpstreamSamlIdp } from '../sso-connections/support/upstream-saml-idp';
import { createTestApp, TestApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { expectAccessible, openConsole, signUpWithWorkspace, type ConsoleBrowser } from './support';

/** Screenshots for docs/sso-connections.md: written to docs/images with UPDATE_SCREENSHOTS=1, else to a temporary file. */
const shot = (name: string) =>
  process.env.UPDATE_SCREENSHOTS ? join(__dirname, '..', '..', 'docs', 'images', name) : join(tmpdir(), `${process.pid}-${name}`);

/** Nothing wider than the viewport outside the boxes that scroll on their own (tables, code blocks). */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('body *'))
      .filter((e) => !e.closest('.table-wrap, pre') && e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
  );
}

describe('console SSO connections page in a real browser', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let op: UpstreamOp;
  let browser: Browser;
  let session: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    // An http issuer on loopback is allowed, as in development (the upstream OP of the tests, a closed port);
    // domains are looked up in a DNS server of the test.
    dns = await startDnsServer();
    [t, op] = await Promise.all([
      createTestApp({ OAUTH_JWKS_ALLOW_PRIVATE_TARGETS: 'true', SSO_DNS_SERVERS: dns.address }),
      UpstreamOp.start(),
    ]);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await op?.stop();
    await t?.close();
    await dns?.close();
  });
  beforeEach(async () => {
    session = await openConsole(browser, t.baseUrl);
    page = session.page;
  });
  afterEach(async () => {
    await session.context.close();
  });

  const nav = (p: Page) => p.getByRole('navigation', { name: 'Workspace' });
  const attemptsTable = (p: Page) => p.getByRole('table', { name: 'Sign-in attempts' });

  it('creates an OIDC connection, shows the redirect URI per IdP, lists refused test sign-ins with their reasons, edits and deletes it', async () => {
    const workspaceId = await signUpWithWorkspace(page, 'Acme');
    await nav(page).getByRole('link', { name: 'SSO connections', exact: true }).click();
    await page.getByRole('heading', { name: 'SSO connections', level: 1 }).waitFor();
    await page.getByText('No connections yet.').waitFor();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'New connection' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Acme Okta');
    await page.getByRole('radio', { name: 'OpenID Connect' }).check();
    await page.getByLabel('Issuer URL').fill('http://127.0.0.1:9');
    await page.getByLabel('Client ID').fill('0oa-console');
    await page.getByLabel('Client secret').fill('s3cret-from-okta');
    await page.getByLabel('Email domains').fill('Acme.example, acme-corp.example');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create' }).click();

    // The connection's own page, with our redirect URI to paste at the provider.
    await page.getByRole('heading', { name: 'Acme Okta', level: 1 }).waitFor();
    const connectionId = new URL(page.url()).pathname.split('/').pop()!;
    expect(new URL(page.url()).pathname).toBe(`/console/w/${workspaceId}/sso/${connectionId}`);
    const redirectUri = `${t.baseUrl}/auth/sso/${connectionId}/callback`;
    expect(await page.getByLabel('Redirect URI', { exact: true }).inputValue()).toBe(redirectUri);
    await page.getByRole('button', { name: 'Copy Redirect URI', exact: true }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(redirectUri);
    const fields = (idp: string) => page.getByRole('table', { name: `Fields at ${idp}` });
    await fields('Okta').getByRole('row').filter({ hasText: 'Sign-in redirect URIs' }).filter({ hasText: redirectUri }).waitFor();
    await page.getByRole('button', { name: 'Entra ID' }).click();
    await fields('Entra ID').getByRole('row').filter({ hasText: 'Redirect URI (Web)' }).filter({ hasText: redirectUri }).waitFor();
    await page.getByRole('button', { name: 'Google Workspace' }).click();
    await fields('Google Workspace')
      .getByRole('row')
      .filter({ hasText: 'Authorized redirect URIs' })
      .filter({ hasText: redirectUri })
      .waitFor();

    // Domains, lower-cased, each pending with the TXT record to publish.
    const domains = page.getByRole('table', { name: 'Domains' });
    for (const domain of ['acme.example', 'acme-corp.example']) {
      const row = domains.getByRole('row').filter({ hasText: domain });
      await row.waitFor();
      expect(await row.textContent()).toContain('pending');
      expect(await row.textContent()).toContain(`_idsvc-verification.${domain}`);
    }
    // One TXT record published: that domain verifies, the other says what is missing.
    const acme = domains.getByRole('row').filter({ hasText: 'acme.example' }).filter({ hasNotText: 'acme-corp' });
    dns.publishTxt('_idsvc-verification.acme.example', (await acme.getByRole('cell').nth(3).textContent())!);
    await page.getByRole('button', { name: 'Verify acme.example', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'acme.example is verified.' }).waitFor();
    expect(await acme.textContent()).toContain('verified');
    await page.getByRole('button', { name: 'Verify acme-corp.example', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'No TXT record' }).waitFor();
    expect(await domains.getByRole('row').filter({ hasText: 'acme-corp.example' }).textContent()).toContain('pending');
    await page.getByText('No sign-in through this connection yet.').waitFor();
    await expectAccessible(page);

    // "Test sign-in" opens a sign-in through the connection in a new tab; the provider cannot be reached,
    // so the tab says so in words.
    const testLink = page.getByRole('link', { name: 'Test sign-in' });
    expect(new URL((await testLink.getAttribute('href'))!).searchParams.get('next')).toBe(`/auth/login/?workspace_id=${workspaceId}`);
    const [tab] = await Promise.all([page.context().waitForEvent('page'), testLink.click()]);
    await tab.getByText('could not be reached').waitFor();
    await tab.close();
    // An answer that no sign-in of this browser waits for (a forged or stale callback).
    await page.goto(`/auth/sso/${connectionId}/callback?code=forged&state=forged-state`);
    await page.getByText('started in another browser or tab').waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Acme Okta', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Refresh' }).click();
    const attempts = attemptsTable(page);
    const stateRow = attempts.getByRole('row').filter({ hasText: 'state_mismatch' });
    await stateRow.waitFor();
    expect(await stateRow.textContent()).toContain('No sign-in of this browser was waiting for this answer');
    expect(await stateRow.textContent()).toContain('refused');
    const upstreamRow = attempts.getByRole('row').filter({ hasText: 'upstream_error' });
    await upstreamRow.waitFor();
    expect(await upstreamRow.textContent()).toContain('could not be reached or failed');
    // Newest first: the forged callback came after the test sign-in.
    expect(await attempts.getByRole('row').nth(1).textContent()).toContain('state_mismatch');
    await expectAccessible(page);
    await page.screenshot({ path: shot('console-sso-connection.png'), fullPage: true });

    // Edit: a new name and a third domain; the secret stays stored when its field is left empty.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Acme Okta (prod)');
    await page.getByLabel('Email domains').fill('acme.example acme-corp.example acme.co.example');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Acme Okta (prod)', level: 1 }).waitFor();
    await domains.getByRole('row').filter({ hasText: 'acme.co.example' }).waitFor();
    const stored = await t
      .http()
      .get(`/developer/external-providers/${connectionId}/`)
      .set(await apiAuth(page))
      .expect(200);
    expect(stored.body).toMatchObject({ name: 'Acme Okta (prod)', oidc: { has_client_secret: true, client_id: '0oa-console' } });

    // Bad input is refused with the API's message, and nothing changes.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Email domains').fill('not a domain!');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').first().waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();

    // The list shows the connection; delete it from its page.
    await nav(page).getByRole('link', { name: 'SSO connections', exact: true }).click();
    await page.getByRole('table', { name: 'SSO connections' }).getByRole('link', { name: 'Acme Okta (prod)' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No connections yet.').waitFor();
    await t
      .http()
      .get(`/developer/external-providers/${connectionId}/`)
      .set(await apiAuth(page))
      .expect(404);
    expect(session.problems).toEqual([]);
  }, 180_000);

  it('creates a SAML connection from pasted IdP metadata, shows the SP values for Okta, Entra ID and Google, and adds a rollover certificate by hand', async () => {
    const idp = new UpstreamSamlIdp();
    await signUpWithWorkspace(page, 'Globex');
    await nav(page).getByRole('link', { name: 'SSO connections', exact: true }).click();
    await page.getByRole('button', { name: 'New connection' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Globex Entra');
    await page.getByRole('radio', { name: 'SAML 2.0' }).check();
    // Metadata that is not an IdP's is refused with the reason under its field.
    await page.getByLabel('IdP metadata XML').fill('<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata"/>');
    await page.getByRole('button', { name: 'Create' }).click();
    await page
      .getByText(/metadata has no entityID|not an IdP EntityDescriptor/)
      .first()
      .waitFor();
    await page.getByLabel('IdP metadata XML').fill(idp.metadataXml());
    await page.getByLabel('Email domains').fill('globex.example');
    await page.getByLabel(/just-in-time/).check();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create' }).click();

    await page.getByRole('heading', { name: 'Globex Entra', level: 1 }).waitFor();
    const connectionId = new URL(page.url()).pathname.split('/').pop()!;
    const root = `${t.baseUrl}/auth/sso/${connectionId}/saml`;
    expect(await page.getByLabel('SP entity ID', { exact: true }).inputValue()).toBe(`${root}/metadata`);
    expect(await page.getByLabel('ACS URL', { exact: true }).inputValue()).toBe(`${root}/acs`);
    expect(await page.getByLabel('SP metadata URL', { exact: true }).inputValue()).toBe(`${root}/metadata`);
    const fields = (name: string) => page.getByRole('table', { name: `Fields at ${name}` });
    await fields('Okta')
      .getByRole('row')
      .filter({ hasText: 'Single sign-on URL' })
      .filter({ hasText: `${root}/acs` })
      .waitFor();
    await fields('Okta')
      .getByRole('row')
      .filter({ hasText: 'Audience URI (SP Entity ID)' })
      .filter({ hasText: `${root}/metadata` })
      .waitFor();
    await page.getByRole('button', { name: 'Entra ID' }).click();
    await fields('Entra ID').getByRole('row').filter({ hasText: 'Reply URL (Assertion Consumer Service URL)' }).waitFor();
    await page.getByRole('button', { name: 'Copy Identifier (Entity ID)', exact: true }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${root}/metadata`);
    await page.getByRole('button', { name: 'Google Workspace' }).click();
    await fields('Google Workspace')
      .getByRole('row')
      .filter({ hasText: 'ACS URL' })
      .filter({ hasText: `${root}/acs` })
      .waitFor();
    const settings = page.locator('dl.details');
    expect(await settings.textContent()).toContain(idp.entityId);
    expect(await settings.textContent()).toContain('Just-in-time accounts' + 'on');
    await expectAccessible(page);
    await page.screenshot({ path: shot('console-sso-saml.png'), fullPage: true });

    // A key rollover: the next certificate beside the current one, entered by hand.
    const next = new UpstreamSamlIdp(idp.entityId, idp.ssoUrl, idpKeys(true));
    await page.getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByLabel('IdP entity ID').inputValue()).toBe(idp.entityId);
    expect(await page.getByLabel('IdP SSO URL').inputValue()).toBe(idp.ssoUrl);
    await page.getByLabel('Next IdP certificate (PEM, optional)').fill(next.keys.certPem);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('dl.details').getByText('2', { exact: true }).waitFor();

    // At phone width in dark mode: still accessible, nothing wider than the screen.
    const phone = await openConsole(browser, t.baseUrl, { width: 375, height: 740 });
    try {
      await phone.page.emulateMedia({ colorScheme: 'dark' });
      await phone.context.addCookies(await session.context.cookies());
      await phone.page.goto(page.url());
      await phone.page.getByRole('heading', { name: 'Globex Entra', level: 1 }).waitFor();
      await phone.page.getByText('No sign-in through this connection yet.').waitFor();
      await expectAccessible(phone.page);
      expect(await overflowing(phone.page)).toEqual([]);
      expect(await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      await phone.page.goto(page.url().replace(/\/[0-9a-f-]{36}$/, ''));
      await phone.page.getByRole('table', { name: 'SSO connections' }).getByRole('link', { name: 'Globex Entra' }).waitFor();
      await expectAccessible(phone.page);
      expect(await overflowing(phone.page)).toEqual([]);
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.context.close();
    }
    expect(session.problems).toEqual([]);
  }, 180_000);

  it('a test sign-in through a real OpenID provider ends signed in as the person, and the attempt is listed as signed in', async () => {
    await signUpWithWorkspace(page, 'Initech');
    await nav(page).getByRole('link', { name: 'SSO connections', exact: true }).click();
    await page.getByRole('button', { name: 'New connection' }).click();
    const clientId = `console-${Date.now()}`;
    await page.getByLabel('Name', { exact: true }).fill('Initech IdP');
    await page.getByLabel('Issuer URL').fill(op.issuer);
    await page.getByLabel('Client ID').fill(clientId);
    await page.getByLabel('Client secret').fill('initech-secret');
    await page.getByLabel(/just-in-time/).check();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Initech IdP', level: 1 }).waitFor();

    // What a developer does at the IdP: register the app with the redirect URI the page shows.
    const redirectUri = await page.getByLabel('Redirect URI', { exact: true }).inputValue();
    await op.registerClient({ client_id: clientId, client_secret: 'initech-secret', redirect_uris: [redirectUri] });
    const subject = `00u${Date.now()}`;
    const email = `milton.${Date.now()}@initech.example`;
    await op.setAccount(subject, { password: 'stapler-1', email, email_verified: true, given_name: 'Milton', family_name: 'Waddams' });

    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: 'Test sign-in' }).click()]);
    await tab.waitForURL((url) => url.href.startsWith(`${op.issuer}/interaction/`));
    await tab.getByLabel('Username').fill(subject);
    await tab.getByLabel('Password').fill('stapler-1');
    await tab.getByRole('button', { name: 'Sign in to Acme' }).click();
    await tab.getByRole('heading', { name: "You're signed in" }).waitFor();
    expect(await tab.textContent('body')).toContain(`Signed in to Initech as ${email}`);
    await tab.close();

    await page.getByRole('button', { name: 'Refresh' }).click();
    const row = attemptsTable(page).getByRole('row').filter({ hasText: email });
    await row.waitFor();
    expect(await row.textContent()).toContain('signed in');
    expect(await row.textContent()).toContain(subject);
    await expectAccessible(page);
    expect(session.problems).toEqual([]);
  }, 180_000);
});

/** The console session's cookie and CSRF header, for reading what the console wrote straight from the API. */
async function apiAuth(page: Page): Promise<Record<string, string>> {
  const cookies = await page.context().cookies();
  return { Cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') };
}
