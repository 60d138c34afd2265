import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { createTestApp, TestApp } from '../support/app';
import { aDeveloper } from '../support/factories';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser, Tenant, TestEndUser } from '../end-users/support';
import { launchChromium } from '../support/browser';

// The docs' pictures are refreshed only on request (UPDATE_SCREENSHOTS=1), so a test run leaves the tree clean.
const shot = (name: string) =>
  process.env.UPDATE_SCREENSHOTS ? join(__dirname, '..', '..', 'docs', 'images', name) : join(tmpdir(), `${process.pid}-${name}`);

/** The development test SP against the zero-config IdP (no SAML variables set). */
describe('built-in test service provider', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let tenant: Tenant;
  let user: TestEndUser;
  let browser: Browser;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp({ SMTP_URL: smtp.url });
    tenant = await aTenant(t);
    user = await anEndUser(t, tenant.client, { smtp, email: 'grace@acme-notes.test', firstName: 'Grace' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
    await smtp.stop();
  });

  it('registers itself once per workspace, and only in a workspace of the developer', async () => {
    const first = await t.http().post('/saml/test-sp/register').set(tenant.dev.auth).send({ workspace_id: tenant.ws.id }).expect(201);
    expect(first.body.sp.acs_url).toBe(`${t.baseUrl}/saml/test-sp/acs`);
    expect(first.body.start_url).toBe(`${t.baseUrl}/saml/test-sp/start?workspace_id=${tenant.ws.id}`);
    const again = await t.http().post('/saml/test-sp/register').set(tenant.dev.auth).send({ workspace_id: tenant.ws.id }).expect(200);
    expect(again.body.sp.id).toBe(first.body.sp.id);
    const stranger = await aDeveloper(t);
    await t.http().post('/saml/test-sp/register').set(stranger.auth).send({ workspace_id: tenant.ws.id }).expect(404);
    await t.http().post('/saml/test-sp/register').send({ workspace_id: tenant.ws.id }).expect(401);
    await t.http().post('/saml/test-sp/register').set(tenant.dev.auth).send({ workspace_id: 'nope' }).expect(400);
  });

  it('walks a browser through SP-initiated SSO and shows the assertion with a valid signature', async () => {
    await t.http().post('/saml/test-sp/register').set(tenant.dev.auth).send({ workspace_id: tenant.ws.id });
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/saml/test-sp/?workspace_id=${tenant.ws.id}`);
    mkdirSync(join(shot('x'), '..'), { recursive: true });
    await page.screenshot({ path: shot('test-sp-start.png'), fullPage: true });
    await page.getByRole('button', { name: 'Sign in with SAML' }).click();
    await page.waitForURL(/\/auth\/login\//);
    // The hosted login names the SP the user is signing in to, not only the workspace.
    expect(await page.locator('p.lead').textContent()).toContain('to continue to Test SP (development)');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.baseUrl}/saml/test-sp/acs`);
    expect(await page.textContent('h1')).toBe('Signed in: the assertion is valid');
    expect(await page.textContent('#name-id')).toBe(user.email);
    const checks = await page.locator('#checks tr').allTextContents();
    expect(checks.some((row) => /Assertion signature.*valid RSA-SHA256/s.test(row))).toBe(true);
    expect(checks.every((row) => row.includes('✔'))).toBe(true);
    expect(await page.locator('#attributes').textContent()).toContain('Grace');
    await page.screenshot({ path: shot('test-sp-result.png'), fullPage: true });

    // The exact bytes and the certificate, downloaded from the page, pass docs/saml.md's xmlsec1 check as written.
    const dir = mkdtempSync(join(tmpdir(), 'test-sp-download-'));
    for (const [link, file] of [
      ['#download-response', 'saml-response.xml'],
      ['#download-idp-cert', 'idp-cert.pem'],
    ]) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(link)]);
      expect(download.suggestedFilename()).toBe(file);
      await download.saveAs(join(dir, `downloaded-${file}`));
    }
    const downloadedCert = readFileSync(join(dir, 'downloaded-idp-cert.pem'), 'utf8');
    writeFileSync(join(dir, 'saml-response.xml'), readFileSync(join(dir, 'downloaded-saml-response.xml')));
    const verified = await runDocRecipe(dir, t.baseUrl);
    expect(verified.output).toMatch(/^OK$/m);
    expect(verified.code).toBe(0);
    // The recipe's idp-cert.pem (from the metadata) is the certificate the page offers.
    expect(readFileSync(join(dir, 'idp-cert.pem'), 'utf8').replace(/\s+/g, '')).toBe(downloadedCert.replace(/\s+/g, ''));
    // What the page shows is re-indented for reading: the same check on it fails, which is why the download exists.
    writeFileSync(join(dir, 'saml-response.xml'), (await page.textContent('#xml')) ?? '');
    expect((await runDocRecipe(dir, t.baseUrl)).code).not.toBe(0);
    await context.close();
  });

  it('rejects an unsigned or malformed response, naming the failed check', async () => {
    const forged = Buffer.from(
      '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_x" Version="2.0"><saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a"><saml:Issuer>me</saml:Issuer></saml:Assertion></samlp:Response>',
    ).toString('base64');
    const res = await t.http().post('/saml/test-sp/acs').type('form').send({ SAMLResponse: forged, RelayState: tenant.ws.id }).expect(400);
    expect(res.text).toContain('The response was rejected');
    expect(res.text).toContain('neither the Response nor the Assertion is signed');
    const junk = await t.http().post('/saml/test-sp/acs').type('form').send({ SAMLResponse: '<<<' }).expect(400);
    expect(junk.text).toContain('Well-formed XML');
  });
});

/** The commands of docs/saml.md "Checking an SP setup by hand", run by plain bash in `dir` as a reader would. */
async function runDocRecipe(dir: string, base: string): Promise<{ code: number; output: string }> {
  const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'saml.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Checking an SP setup by hand'));
  const recipe = /```bash\n([\s\S]*?)```/.exec(section)?.[1];
  if (!recipe) throw new Error('no bash block in the section');
  try {
    const { stdout, stderr } = await promisify(execFile)('bash', ['-c', recipe], { cwd: dir, env: { ...process.env, BASE: base } });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('test service provider in production', () => {
  it('does not exist', async () => {
    const t = await createTestApp({ NODE_ENV: 'production' });
    try {
      await t.http().get('/saml/test-sp/').expect(404);
      await t.http().get('/saml/test-sp/start').query({ workspace_id: '00000000-0000-4000-8000-000000000000' }).expect(404);
    } finally {
      await t.close();
    }
  });
});

describe('SAML error pages', () => {
  it('use the hosted login look and offer a way back to the application that sent the browser', async () => {
    const t = await createTestApp();
    try {
      const res = await t
        .http()
        .get('/saml/sso/')
        .query({ SAMLRequest: 'not-a-request' })
        .set('Referer', 'https://notes.example.com/login?x=1')
        .expect(400);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toContain('class="card"');
      expect(res.text).toContain('<a href="https://notes.example.com/" rel="noreferrer">Back to notes.example.com</a>');
      const own = await t
        .http()
        .get('/saml/sso/')
        .query({ SAMLRequest: 'not-a-request' })
        .set('Referer', `${t.baseUrl}/somewhere`)
        .expect(400);
      expect(own.text).not.toContain('Back to');
    } finally {
      await t.close();
    }
  });
});
