import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createTestApp, TestApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { eventually } from '../support/eventually';
import { uniqueEmail } from '../support/factories';
import { PushReceiver } from '../shared-signals/ssf-support';
import { expectAccessible, openConsole, signUpWithWorkspace, type ConsoleBrowser } from './support';

/** The screenshot for docs/console.md: written to docs/images with UPDATE_SCREENSHOTS=1, else to a temporary file. */
const shot = (name: string) =>
  process.env.UPDATE_SCREENSHOTS ? join(__dirname, '..', '..', 'docs', 'images', name) : join(tmpdir(), `${process.pid}-${name}`);

const SCIM_JSON = 'application/scim+json';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const PUSH = 'urn:ietf:rfc:8935';
const ACCOUNT_DISABLED = 'https://schemas.openid.net/secevent/risc/event-type/account-disabled';
const SESSION_REVOKED = 'https://schemas.openid.net/secevent/caep/event-type/session-revoked';

describe('console Shared Signals page in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let session: ConsoleBrowser;
  let page: Page;
  const push = new PushReceiver();

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', DIRECTORY_EVENTS_SEAL_INTERVAL_MS: '50' });
    browser = await launchChromium();
    await push.start();
  });
  afterAll(async () => {
    await push.stop();
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

  it('registers a receiver with its secret shown once, shows its stream and last delivery, and deletes one', async () => {
    await signUpWithWorkspace(page, 'Signals demo');
    await page.getByRole('button', { name: 'New token' }).click();
    await page.getByLabel('Label').fill('Okta');
    await page.getByRole('button', { name: 'Create' }).click();
    const tokenField = page.getByLabel('New token value');
    await tokenField.waitFor();
    const scimToken = await tokenField.inputValue();

    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Shared Signals' }).click();
    await page.getByRole('heading', { name: 'Shared Signals', level: 1 }).waitFor();
    await page.getByText('No receivers yet.').waitFor();
    expect(await page.getByText(`${t.baseUrl}/.well-known/ssf-configuration`).count()).toBe(1);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'New receiver' }).click();
    await page.getByLabel('Name').fill('Slack access revocation');
    await page.getByLabel('People its stream carries').selectOption('ALL');
    await page.getByRole('button', { name: 'Create receiver' }).click();
    const credentials = page.getByRole('region', { name: 'Credentials of Slack access revocation' });
    await credentials.waitFor();
    const secret = await credentials.getByLabel('Client secret').inputValue();
    expect(secret).toMatch(/^ssfs_/);
    const clientId = /ssfr_[0-9a-f]+/.exec((await credentials.textContent()) ?? '')![0];
    const card = page.getByRole('article', { name: 'Receiver Slack access revocation' });
    await card.getByText('no stream yet').waitFor();
    expect(await card.textContent()).toContain('everyone in the workspace');
    await expectAccessible(page);
    await credentials.getByRole('button', { name: 'Done' }).click();
    await credentials.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);

    // The receiver does what a receiver does: a token of scope ssf, a push stream.
    const token = await t
      .http()
      .post('/oauth/token')
      .auth(clientId, secret)
      .type('form')
      .send({ grant_type: 'client_credentials', scope: 'ssf' })
      .expect(200);
    await t
      .http()
      .post('/ssf/streams')
      .set('Authorization', `Bearer ${token.body.access_token as string}`)
      .send({ delivery: { method: PUSH, endpoint_url: push.url }, events_requested: [ACCOUNT_DISABLED, SESSION_REVOKED] })
      .expect(201);
    const scim = (method: 'post' | 'patch', path: string, body: unknown) => {
      const http = t.http();
      return http[method](`/scim/v2${path}`)
        .set('Authorization', `Bearer ${scimToken}`)
        .set('Content-Type', SCIM_JSON)
        .send(JSON.stringify(body));
    };
    const ada = uniqueEmail('ada');
    const adaId = (await scim('post', '/Users', { schemas: [USER], userName: ada, active: true }).expect(201)).body.id as string;
    await scim('patch', `/Users/${adaId}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }).expect(
      200,
    );
    await eventually(() => expect(push.received).toHaveLength(2), { timeoutMs: 30_000 });

    const stream = page.getByRole('region', { name: 'Stream of Slack access revocation' });
    for (let tries = 0; !(await stream.getByText('2 delivered').count()); tries++) {
      if (tries > 20) throw new Error(`the deliveries never showed: ${await card.textContent()}`);
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByRole('button', { name: 'Refresh' }).and(page.locator(':enabled')).waitFor();
    }
    const shown = (await stream.textContent()) ?? '';
    expect(shown).toContain('enabled');
    expect(shown).toContain(`Push to ${push.url}`);
    expect(shown).toContain('account-disabled, session-revoked');
    expect(shown).not.toContain('never');

    // A second receiver, without a stream yet; deleted after a confirmation.
    await page.getByRole('button', { name: 'New receiver' }).click();
    await page.getByLabel('Name').fill('Old CRM');
    await page.getByRole('button', { name: 'Create receiver' }).click();
    await page.getByRole('region', { name: 'Credentials of Old CRM' }).waitFor();
    await page.getByRole('article', { name: 'Receiver Old CRM' }).getByText('no stream yet').waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: shot('console-ssf.png'), fullPage: true });

    await page.getByRole('button', { name: 'Delete Old CRM' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('article', { name: 'Receiver Old CRM' }).waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'Credentials of Old CRM' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('article').count()).toBe(1);
    expect(session.problems).toEqual([]);
  });
});
