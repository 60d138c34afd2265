import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../support/app';
import { withChromium } from '../support/browser';
import { eventually } from '../support/eventually';
import { withMailingApp } from '../support/mailing-app';
import { freePort } from '../support/private-stores';
import type { SmtpReceiver } from '../support/smtp-receiver';
import { anEndUser } from '../end-users/support';
import { anApplication } from '../oidc/support';

const ROOT = join(__dirname, '..', '..');

/** The first ```js block under docs/oidc.md's "A small Express application", exactly as a reader copies it. */
function expressSample(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'oidc.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## A small Express application'));
  const block = /```js\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('docs/oidc.md has no js block under "A small Express application"');
  return block[1];
}

/**
 * The OpenID sample of docs/oidc.md runs as written against the local http service: openid-client
 * accepts the http issuer (allowInsecureRequests for a local one), the sample listens on its own port,
 * and the routes it redirects to exist (a person signs in through the hosted login in Chromium and
 * lands on the sample's callback with their claims).
 */
describe('docs/oidc.md: the Express sample', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let browser: Browser;
  let sample: ChildProcess | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'oidc-sample-'));
  withMailingApp((started) => ({ t, smtp } = started));
  withChromium((started) => (browser = started));
  afterAll(() => {
    sample?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs a person in through the hosted login and shows their claims on its callback', async () => {
    const port = await freePort();
    const { app } = await anApplication(t, { redirect_uris: [`http://localhost:${port}/callback`] });
    const user = await anEndUser(t, app as never, { smtp });

    // The reader's project: the sample beside the packages it imports (this checkout's node_modules).
    writeFileSync(join(dir, 'app.mjs'), expressSample());
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const output: string[] = [];
    sample = spawn(process.execPath, ['app.mjs'], {
      cwd: dir,
      env: { PATH: process.env.PATH, ISSUER: t.baseUrl, CLIENT_ID: app.client_id, CLIENT_SECRET: app.client_secret!, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [sample.stdout!, sample.stderr!]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    await eventually(() => expect(output.join('')).toContain(`sample application on http://localhost:${port}/`), { timeoutMs: 60_000 });

    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`http://localhost:${port}/`);
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.href.startsWith(`http://localhost:${port}/callback`));
      const claims = JSON.parse((await page.locator('body').innerText()) as string) as Record<string, unknown>;
      expect(claims).toMatchObject({ iss: t.config.PUBLIC_BASE_URL, aud: app.client_id, email: user.email, sub: expect.any(String) });
    } finally {
      await context.close();
    }
    expect(output.join('')).not.toMatch(/Error/);
  });
});
