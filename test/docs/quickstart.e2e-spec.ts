import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { AppProcess, spawnApp, SPAWN_HOOK_TIMEOUT_MS } from '../support/app-process';
import { launchChromium } from '../support/browser';
import { expectAccessible, openConsole } from '../console/support';
import { startDnsServer, type TestDnsServer } from '../sso-connections/support/dns-server';
import { UpstreamOp } from '../sso-connections/support/upstream-op';
import { serveSamlIdp, UpstreamSamlIdp, type ServedSamlIdp } from '../sso-connections/support/upstream-saml-idp';

const run = promisify(execFile);
const QUICKSTART = resolve(__dirname, '../../docs/quickstart.md');
/** The section 6 screenshot: written to docs/images with UPDATE_SCREENSHOTS=1, else to a temporary file. */
const shot = (name: string) =>
  process.env.UPDATE_SCREENSHOTS ? resolve(__dirname, '../../docs/images', name) : join(tmpdir(), `${process.pid}-${name}`);

/** The `bash` blocks of each `## ` section of the quickstart, in order (`text` blocks are not run). */
function quickstartSections(markdown: string): { title: string; script: string }[] {
  return markdown
    .split(/^## /m)
    .slice(1)
    .map((section) => ({
      title: section.split('\n')[0].trim(),
      script: [...section.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1]).join('\n'),
    }))
    .filter((s) => s.script.trim() !== '');
}

/** Each shell a reader might paste the blocks into: a plain `bash`, and one that stops on any error. */
const SHELLS = {
  // No -e: an ERR trap reports every failing command (a loop that did not wait leaves the next one failing).
  plain: `trap 'echo "@@failed line $LINENO: $BASH_COMMAND"' ERR`,
  strict: 'set -euo pipefail',
} as const;

/**
 * The quickstart cannot rot: its commands, taken from the file itself, run in one shell against a
 * zero-configuration instance (embedded database, mail to files, generated secrets and IdP), and the
 * browser step of the SAML journey is walked with Chromium on the URL the commands printed. They run
 * twice, in a plain bash and under `set -euo pipefail`, each against its own instance.
 */
describe('docs/quickstart.md', () => {
  let app: AppProcess;
  let plainApp: AppProcess;
  let browser: Browser;
  /** The company's IdP of section 5: panva's oidc-provider on loopback, with Grace's account. */
  let op: UpstreamOp;
  /** The company's SAML IdP of section 6 (samlify, on "localhost": another site), and the DNS its domain is verified in. */
  let samlIdp: ServedSamlIdp & { idp: UpstreamSamlIdp };
  let samlSp: { entityId: string; acsUrl: string } | null = null;
  let dns: TestDnsServer;
  const dataDir = mkdtempSync(join(tmpdir(), 'idsvc-quickstart-'));
  const plainDataDir = mkdtempSync(join(tmpdir(), 'idsvc-quickstart-plain-'));
  // The IdP of section 5 is an http issuer on loopback, which development allows (OAUTH_JWKS_ALLOW_PRIVATE_TARGETS).
  const zeroConfig = (dir: string) => ({
    DATABASE_URL: '',
    REDIS_URL: '',
    SMTP_URL: '',
    DATA_DIR: dir,
    LOG_FILE: '',
    LOG_LEVEL: 'warn',
    OAUTH_JWKS_ALLOW_PRIVATE_TARGETS: 'true',
  });
  const idp = { clientId: 'quickstart-app', clientSecret: 'quickstart-idp-secret', password: 'grace-at-the-idp' };
  beforeAll(async () => {
    dns = await startDnsServer();
    samlIdp = await serveSamlIdp(
      (ssoUrl) => new UpstreamSamlIdp(undefined, ssoUrl),
      () => {
        if (!samlSp) throw new Error('the IdP was not given our ACS URL and entity ID');
        return samlSp;
      },
    );
    // The instance the console is walked on looks TXT records up in the test's DNS, where the reader's DNS host would publish them.
    [app, plainApp, op] = await Promise.all([
      spawnApp({ ...zeroConfig(dataDir), SSO_DNS_SERVERS: dns.address }),
      spawnApp(zeroConfig(plainDataDir)),
      UpstreamOp.start(),
    ]);
    await op.setAccount('grace', { password: idp.password, email: 'grace@acme.test', email_verified: true });
    browser = await launchChromium();
  }, SPAWN_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([app?.stop(), plainApp?.stop(), op?.stop(), samlIdp?.close(), dns?.close()]);
  });

  /** Runs every bash block in one shell; answers its output, the directory it ran in and per-section timings. */
  async function runQuickstart(shell: keyof typeof SHELLS, instance: AppProcess, dir: string) {
    const sections = quickstartSections(readFileSync(QUICKSTART, 'utf8'));
    expect(sections.map((s) => s.title.slice(0, 2))).toEqual(['0.', '1.', '2.', '3.', '4.', '5.']);
    const script = [SHELLS[shell], ...sections.flatMap((s, i) => [s.script, `echo "@@done ${i} $(date +%s%3N)"`])].join('\n');
    const cwd = mkdtempSync(join(tmpdir(), 'idsvc-quickstart-shell-'));
    const started = Date.now();
    const { stdout } = await run('bash', ['-c', script], {
      cwd,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: tmpdir(),
        BASE: instance.baseUrl,
        DATA_DIR: dir,
        // What a reader copies from the app they registered at their IdP (section 5).
        IDP_ISSUER: op.issuer,
        IDP_CLIENT_ID: idp.clientId,
        IDP_CLIENT_SECRET: idp.clientSecret,
      },
      // A ceiling against a hang, not a speed target: every wait in the blocks is for a condition.
      timeout: SPAWN_HOOK_TIMEOUT_MS,
    }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`quickstart commands failed (${shell} bash): ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    });
    const marks = [...stdout.matchAll(/^@@done (\d+) (\d+)$/gm)].map((m) => Number(m[2]));
    const timings = marks.map((t, i) => `${sections[i].title}: ${((t - (i === 0 ? started : marks[i - 1])) / 1000).toFixed(1)} s`);
    return { stdout, cwd, timings };
  }

  it(
    'runs every command of every journey in a plain bash without set -e, each waiting for what it needs',
    async () => {
      const { stdout, cwd } = await runQuickstart('plain', plainApp, plainDataDir);
      expect(stdout.split('\n').filter((line) => line.startsWith('@@failed'))).toEqual([]);
      expect(stdout).toMatch(/^@@done 5 /m);
      expect(stdout).toContain('"grace@acme.test"');
      // Section 4: the OpenID flow ended on the app's callback with a code, and UserInfo named Ada.
      expect(stdout).toContain('http://127.0.0.1:3000/callback?code=…&state=quickstart');
      expect(stdout).toContain('"email": "ada@acme.test"');
      expect(stdout).toContain('"new_device"');
      // Nothing is left where the reader ran the commands (no cookie jar holding a live session).
      expect(readdirSync(cwd)).toEqual([]);
    },
    SPAWN_HOOK_TIMEOUT_MS,
  );

  it(
    'runs every command of every journey under set -euo pipefail, and the test SP sign-in it points to succeeds',
    async () => {
      const { stdout, cwd, timings } = await runQuickstart('strict', app, dataDir);
      expect(stdout).toContain('"grace@acme.test"');
      expect(stdout).toContain('"new_device"');
      expect(readdirSync(cwd)).toEqual([]);
      const page = /^Open (\S+) in a browser$/m.exec(stdout)?.[1];
      expect(page).toBeDefined();

      const browserStarted = Date.now();
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(page!);
      await tab.getByRole('button', { name: 'Sign in with SAML' }).click();
      await tab.waitForURL(/\/auth\/login\//);
      expect(await tab.textContent('body')).toContain('Acme');
      await tab.getByLabel('Email').fill('ada@acme.test');
      await tab.getByLabel('Password').fill('a-long-user-password');
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.waitForURL(/\/saml\/test-sp\/acs$/);
      expect(await tab.textContent('h1')).toBe('Signed in: the assertion is valid');
      expect(await tab.textContent('#name-id')).toBe('ada@acme.test');
      await context.close();
      timings.push(`3. browser sign-in through the test SP: ${((Date.now() - browserStarted) / 1000).toFixed(1)} s`);

      // Section 5: the redirect URI registered at the IdP, then Grace (SCIM-provisioned, no password of ours)
      // signs in there and lands signed in as herself.
      const redirectUri = /^Register (\S+) as the app's redirect URI at your IdP$/m.exec(stdout)?.[1];
      const signIn = /^Then open (\S+) in a browser$/m.exec(stdout)?.[1];
      expect({ redirectUri, signIn }).toEqual({ redirectUri: expect.stringContaining('/callback'), signIn: expect.any(String) });
      await op.registerClient({ client_id: idp.clientId, client_secret: idp.clientSecret, redirect_uris: [redirectUri!] });
      const idpStarted = Date.now();
      const graceContext = await browser.newContext();
      const grace = await graceContext.newPage();
      await grace.goto(signIn!);
      await grace.waitForURL((url) => url.href.startsWith(`${op.issuer}/interaction/`));
      await grace.getByLabel('Username').fill('grace');
      await grace.getByLabel('Password').fill(idp.password);
      await grace.getByRole('button', { name: 'Sign in to Acme' }).click();
      await grace.getByRole('heading', { name: "You're signed in" }).waitFor();
      expect(await grace.textContent('body')).toContain('as grace@acme.test');
      await graceContext.close();
      timings.push(`5. browser sign-in through the IdP: ${((Date.now() - idpStarted) / 1000).toFixed(1)} s`);
      process.stdout.write(`quickstart journey timings (commands as written, zero-config instance):\n  ${timings.join('\n  ')}\n`);
    },
    SPAWN_HOOK_TIMEOUT_MS,
  );

  it(
    'section 6 in the console: a SAML connection from the IdP metadata, acme.test verified, Grace signed in to the test SP through the IdP with no password, and the same by Test sign-in without the domain',
    async () => {
      // Runs on the instance the strict run set up (steps 1 and 3: the developer, Acme, Grace over SCIM, the test SP).
      const started = Date.now();
      const marks: string[] = [];
      const mark = (what: string) => marks.push(`${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const session = await openConsole(browser, app.baseUrl);
      const { page, context } = session;
      try {
        // 2. The console, the Acme workspace, a SAML connection from the metadata the IdP gave.
        await page.goto('/console/signin');
        await page.getByLabel('Email').fill('dev@example.com');
        await page.getByLabel('Password').fill('a-long-developer-password');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
        await page.getByRole('link', { name: 'Acme', exact: true }).click();
        const nav = page.getByRole('navigation', { name: 'Workspace' });
        await nav.getByRole('link', { name: 'SSO connections', exact: true }).click();
        await page.getByRole('button', { name: 'New connection' }).click();
        await page.getByLabel('Name', { exact: true }).fill('Acme SAML');
        await page.getByRole('radio', { name: 'SAML 2.0' }).check();
        await page.getByLabel('IdP metadata XML').fill(samlIdp.idp.metadataXml());
        await page.getByLabel('Email domains').fill('acme.test');
        await page.getByRole('button', { name: 'Create' }).click();
        await page.getByRole('heading', { name: 'Acme SAML', level: 1 }).waitFor();
        mark('6.2 SAML connection created');

        // 3. What the IdP asks for, read where the reader reads it: Okta's field names on the page.
        const okta = page.getByRole('table', { name: 'Fields at Okta' });
        const acsUrl = await page.getByLabel('ACS URL', { exact: true }).inputValue();
        const entityId = await page.getByLabel('SP entity ID', { exact: true }).inputValue();
        await okta.getByRole('row').filter({ hasText: 'Single sign-on URL' }).filter({ hasText: acsUrl }).waitFor();
        await okta.getByRole('row').filter({ hasText: 'Audience URI (SP Entity ID)' }).filter({ hasText: entityId }).waitFor();
        samlSp = { entityId, acsUrl };
        samlIdp.person = { subject: 'grace-persistent-id', email: 'grace@acme.test', firstName: 'Grace', lastName: 'Hopper' };

        // 4. The TXT record published at the DNS host, then Verify.
        const domains = page.getByRole('table', { name: 'Domains' });
        const acme = domains.getByRole('row').filter({ hasText: 'acme.test' });
        expect(await acme.textContent()).toContain('_idsvc-verification.acme.test');
        dns.publishTxt('_idsvc-verification.acme.test', (await acme.getByRole('cell').nth(3).textContent())!);
        await page.getByRole('button', { name: 'Verify acme.test', exact: true }).click();
        await page.getByRole('status').filter({ hasText: 'acme.test is verified.' }).waitFor();
        mark('6.4 acme.test verified');

        // 5. The test SP (registered in step 3), the hosted login's email step alone, the IdP, and back to the test SP.
        await nav.getByRole('link', { name: 'SAML', exact: true }).click();
        await page.getByRole('button', { name: 'Register the test SP' }).click();
        await page.getByRole('status').filter({ hasText: 'Already registered' }).waitFor();
        const spStart = (await page.getByRole('link', { name: 'Sign in at the test SP' }).getAttribute('href'))!;
        const grace = await context.newPage();
        await grace.goto(spStart);
        await grace.waitForURL(/\/auth\/login\//);
        await grace.getByLabel('Email').fill('grace@acme.test');
        await grace.getByRole('button', { name: 'Sign in', exact: true }).click();
        await grace.waitForURL(/\/saml\/test-sp\/acs$/);
        expect(await grace.textContent('h1')).toBe('Signed in: the assertion is valid');
        expect(await grace.textContent('#name-id')).toBe('grace@acme.test');
        await grace.close();
        mark('6.5 Grace signed in to the test SP through the IdP');

        // The connection's page lists her sign-in; it passes axe in light and dark.
        await nav.getByRole('link', { name: 'SSO connections', exact: true }).click();
        await page.getByRole('table', { name: 'SSO connections' }).getByRole('link', { name: 'Acme SAML' }).click();
        const attempt = page.getByRole('table', { name: 'Sign-in attempts' }).getByRole('row').filter({ hasText: 'grace@acme.test' });
        await attempt.waitFor();
        expect(await attempt.textContent()).toContain('signed in');
        expect(await attempt.textContent()).toContain('grace-persistent-id');
        expect(await domains.getByRole('row').filter({ hasText: 'acme.test' }).textContent()).toContain('verified');
        await expectAccessible(page);
        await page.screenshot({ path: shot('quickstart-sso-saml-connection.png'), fullPage: true });
        await page.emulateMedia({ colorScheme: 'dark' });
        await expectAccessible(page);

        // Without a domain: Test sign-in starts the connection directly, then the test SP signs her in with no form.
        const testSignIn = (await page.getByRole('link', { name: 'Test sign-in' }).getAttribute('href'))!;
        const direct = await browser.newContext();
        try {
          const tab = await direct.newPage();
          await tab.goto(testSignIn);
          await tab.getByRole('heading', { name: "You're signed in" }).waitFor();
          expect(await tab.textContent('body')).toContain('as grace@acme.test');
          await tab.goto(spStart);
          await tab.waitForURL(/\/saml\/test-sp\/acs$/);
          expect(await tab.textContent('#name-id')).toBe('grace@acme.test');
        } finally {
          await direct.close();
        }
        mark('6 (no domain) Test sign-in, then the test SP with no form');
        expect(session.problems).toEqual([]);
        process.stdout.write(`quickstart section 6 in the console (after the commands):\n  ${marks.join('\n  ')}\n`);
      } finally {
        await context.close();
      }
    },
    SPAWN_HOOK_TIMEOUT_MS,
  );

  /** `npm run seed`'s script, run as the README says, against the same instance. */
  async function seed(): Promise<Map<string, string>> {
    const { stdout } = await run(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', resolve(__dirname, '../../scripts/seed.ts'), '--base', app.baseUrl],
      {
        cwd: mkdtempSync(join(tmpdir(), 'idsvc-seed-')),
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: tmpdir(),
          DATA_DIR: dataDir,
          NODE_PATH: resolve(__dirname, '../../node_modules'),
          TS_NODE_PROJECT: resolve(__dirname, '../../tsconfig.json'),
        },
        timeout: 60_000,
      },
    );
    return new Map([...stdout.matchAll(/^ {2}(\S[^\n]*?) {2,}(\S[^\n]*)$/gm)].map((m) => [m[1].trim(), m[2].trim()]));
  }

  it('npm run seed prints demo credentials that work, a verified end user and the test SP, and reuses its developer', async () => {
    const first = await seed();
    const developerToken = first.get('Developer token')!.split(/\s/)[0];
    const workspaceId = first.get('Workspace')!;
    const workspaces = await fetch(`${app.baseUrl}/e/v1/developer/workspaces/`, { headers: { Authorization: `Bearer ${developerToken}` } });
    expect(workspaces.status).toBe(200);
    expect(JSON.stringify(await workspaces.json())).toContain(workspaceId);
    const users = await fetch(`${app.baseUrl}/scim/v2/Users`, { headers: { Authorization: `Bearer ${first.get('SCIM token')}` } });
    expect(users.status).toBe(200);
    expect(first.get('End user')).toMatch(/\(verified\)$/);
    const [email, password] = first
      .get('End user')!
      .split(/\s+/)
      .filter((word) => word !== '/');
    const clientId = /client_id (\S+)/.exec(first.get('OAuth client')!)![1];
    const login = await fetch(`${app.baseUrl}/e/v1/auth/login/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: clientId, email, password }),
    });
    expect(login.status).toBe(200);
    expect(first.get('Test SAML SP')).toMatch(/^http:\/\/.+\/saml\/test-sp\//);

    const second = await seed();
    expect(second.get('Developer')).toBe(first.get('Developer'));
    expect(second.get('Workspace')).not.toBe(workspaceId);
  });
});
